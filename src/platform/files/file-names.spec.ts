import { directoryProblem, fileNameProblem, fileSetLabelProblems } from './file-names.js';

const INVISIBLE = /invisible or text-direction/;

describe('file names and directories', () => {
  it.each([
    ['RTL override (ok\\u202Egnp.exe shows as okexe.png)', 'ok\u202Egnp.exe'],
    ['LTR override', 'a\u202Db.txt'],
    ['isolate', '\u2066x.png'],
    ['left-to-right mark', 'x\u200E.png'],
    ['Arabic letter mark', 'x\u061C.png'],
    ['zero-width space', 'in\u200Bvoice.pdf'],
    ['zero-width joiner', 'a\u200Db.pdf'],
    ['word joiner', 'a\u2060b.pdf'],
    ['soft hyphen', 'pass\u00ADwords.txt'],
    ['BOM', '\uFEFFname.txt'],
    ['Hangul filler', 'a\u3164b.txt'],
  ])('refuse a %s, as email addresses do', (_what, bad) => {
    expect(fileNameProblem(bad)).toMatch(INVISIBLE);
    expect(directoryProblem(`clips/${bad}`)).toMatch(INVISIBLE);
    expect(fileSetLabelProblems({ name: bad, base_dir: bad })).toEqual({
      name: expect.stringMatching(INVISIBLE),
      base_dir: expect.stringMatching(INVISIBLE),
    });
  });

  it('pass names in any script, and keep the earlier rules', () => {
    for (const ok of ['clip.mp4', 'résumé.pdf', 'фото.jpg', '写真.png', 'تقرير.pdf', 'a b (1).mov']) {
      expect(fileNameProblem(ok)).toBeNull();
      expect(directoryProblem(`clips/${ok}`)).toBeNull();
    }
    expect(fileSetLabelProblems({ name: 'clip.mp4', base_dir: '' })).toEqual({});
    expect(fileSetLabelProblems({})).toEqual({});
    expect(fileNameProblem('a/b')).toMatch(/single name/);
    expect(fileNameProblem('..')).toMatch(/"\."/);
    expect(directoryProblem('../up')).toMatch(/segments/);
    expect(directoryProblem('/abs')).toMatch(/relative/);
  });
});
