// The pure parts of a SCIM list request (scim-query.ts): the filter as parsed and case-folded, what it narrows
// the database's candidates to, which resources it matches, paging, the ListResponse and attribute projection.
import { describe, expect, it } from '@jest/globals';
import type { ScimUserRow } from './scim.repository.js';
import {
  listResponse,
  matching,
  narrowing,
  paging,
  parseFilter,
  projection,
  type ResourceKeys,
} from './scim-query.js';
import {
  GROUP_KEYS,
  groupResource,
  project,
  type Resource,
  USER_KEYS,
  userResource,
} from './scim-resources.js';
import { SCIM } from './scim-schemas.js';
import { refusal } from '../../../test/utils/scim-refusal.js';
import { ADA_ID as UUID, SCIM_BASE as BASE, scimUserRow } from '../../../test/utils/fakes/scim.js';

const UUID_UPPER = 'A0B1C2D3-E4F5-4A6B-8C7D-9E0F1A2B3C4D';
const AT = new Date('2026-03-01T10:00:00Z');

/** The filter's expression tree as plain data (scimmy's Filter is an array of branches). */
const tree = (text: string, keys: ResourceKeys = USER_KEYS) =>
  JSON.parse(JSON.stringify(parseFilter(text, keys))) as unknown;

const row = (over: Partial<ScimUserRow> = {}) =>
  scimUserRow({
    date_created: AT,
    date_modified: AT,
    external_id: 'Okta-00A1',
    display_name: 'Ada Lovelace',
    enterprise: { department: 'Engines' },
    ...over,
  });

const ADA = userResource(row(), [{ id: UUID_UPPER.toLowerCase(), name: 'Analysts' }], BASE);
const BOB = userResource(
  row({
    id: 'b0b00000-0000-4000-8000-000000000002',
    email: 'bob@example.org',
    first_name: 'Bob',
    last_name: null,
    status: 'INACTIVE',
    external_id: null,
    display_name: null,
    enterprise: null,
  }),
  [],
  BASE,
);
const CAROL = userResource(
  row({ id: 'ca201000-0000-4000-8000-000000000003', email: 'carol@example.com', first_name: 'Carol' }),
  [],
  BASE,
);
const PEOPLE = [ADA, BOB, CAROL];
const ADA_MEMBER = { id: UUID, email: 'ada@example.com' };

/** The userNames of the people `text` matches. */
const who = (text: string, people: Resource[] = PEOPLE) =>
  matching(people, parseFilter(text, USER_KEYS), USER_KEYS).map((r) => r.userName);

describe('parseFilter', () => {
  it('answers null for no filter: absent, empty or blank', () => {
    expect(parseFilter(undefined, USER_KEYS)).toBeNull();
    expect(parseFilter('', USER_KEYS)).toBeNull();
    expect(parseFilter('   ', USER_KEYS)).toBeNull();
  });

  it.each([
    ['an unknown operator', 'userName xx "a@b.c"'],
    ['an unclosed parenthesis', '(userName eq "a@b.c"'],
    ['a stray closing parenthesis', 'userName eq "a@b.c")'],
    ['an attribute alone', 'userName'],
    ['two words for an attribute', 'user name eq "x"'],
    ['an empty branch list', '[]'],
  ])('refuses %s with 400 invalidFilter', (_what, text) => {
    expect(refusal(() => parseFilter(text, USER_KEYS))).toEqual({ status: 400, scimType: 'invalidFilter' });
  });

  it('folds the values of userName, displayName and emails.value to lower case, and only those (Users)', () => {
    const text =
      'userName eq "Ada@Example.COM" or emails.value eq "BOB@X.IO" or externalId eq "Okta-00A1" or ' +
      'displayName eq "Ada Lovelace" or name.givenName sw "Ad"';
    expect(tree(text)).toEqual([
      { userName: ['eq', 'ada@example.com'] },
      { emails: { value: ['eq', 'bob@x.io'] } },
      { externalId: ['eq', 'Okta-00A1'] },
      { displayName: ['eq', 'ada lovelace'] },
      { name: { givenName: ['sw', 'Ad'] } },
    ]);
  });

  it('folds the value of emails[type eq "..."].value but not its type', () => {
    expect(tree('emails[type eq "Work"].value eq "Ada@Example.COM"')).toEqual([
      { emails: { type: ['eq', 'Work'], value: ['eq', 'ada@example.com'] } },
    ]);
  });

  it('folds whatever case the attribute name is written in, and under not (...)', () => {
    expect(tree('UserName eq "ADA@X.IO"')).toEqual([{ userName: ['eq', 'ada@x.io'] }]);
    expect(who('USERNAME eq "ADA@EXAMPLE.COM"')).toEqual(['ada@example.com']);
    expect(tree('not (userName eq "ADA@X.IO")')).toEqual([{ userName: ['not', 'eq', 'ada@x.io'] }]);
  });

  it('keeps booleans and operators as they are', () => {
    expect(tree('active eq false and userName pr')).toEqual([{ active: ['eq', false], userName: ['pr'] }]);
  });

  it('folds displayName for Groups, not externalId', () => {
    expect(tree('displayName eq "Eng Team" and externalId eq "GRP-1"', GROUP_KEYS)).toEqual([
      { displayName: ['eq', 'eng team'], externalId: ['eq', 'GRP-1'] },
    ]);
  });
});

describe('narrowing', () => {
  const narrowed = (text: string, keys: ResourceKeys = USER_KEYS) => narrowing(parseFilter(text, keys), keys);

  it('is null without a filter', () => {
    expect(narrowing(null, USER_KEYS)).toBeNull();
  });

  it('collects the eq of every OR branch on id, userName, emails.value and externalId', () => {
    const text =
      `id eq "${UUID}" or userName eq "Ada@Example.com" or emails.value eq "BOB@example.org" ` +
      'or emails[type eq "work"].value eq "carol@example.com" or externalId eq "Okta-00A1"';
    expect(narrowed(text)).toEqual({
      ids: [UUID],
      keys: ['ada@example.com', 'bob@example.org', 'carol@example.com'],
      externalIds: ['Okta-00A1'],
    });
  });

  it('narrows an AND branch by the key it names with eq', () => {
    expect(narrowed('userName eq "a@b.co" and active eq true')).toEqual({
      ids: [],
      keys: ['a@b.co'],
      externalIds: [],
    });
  });

  it.each([
    ['one OR branch names no key', 'userName eq "a@b.co" or displayName eq "Ada"'],
    ['a key compared with co', 'userName co "ada"'],
    ['a key compared with ne', 'userName ne "a@b.co"'],
    ['a key under not', 'not (userName eq "a@b.co")'],
    ['a key tested for presence', 'externalId pr'],
    ['a sub-attribute that is no key', 'name.givenName eq "Ada"'],
  ])('is null when %s', (_what, text) => {
    expect(narrowed(text)).toBeNull();
  });

  it('drops ids that are no UUID (an upper-case UUID is one)', () => {
    expect(narrowed(`id eq "42" or id eq "${UUID_UPPER}" or id eq "${UUID}x"`)).toEqual({
      ids: [UUID_UPPER],
      keys: [],
      externalIds: [],
    });
    // a filter naming only non-UUID ids narrows to nothing (it can match nothing)
    expect(narrowed('id eq "../etc"')).toEqual({ ids: [], keys: [], externalIds: [] });
  });

  it('narrows Groups by folded displayName, id and externalId, not by members.value', () => {
    expect(narrowed('displayName eq "Eng Team" or externalId eq "G-1"', GROUP_KEYS)).toEqual({
      ids: [],
      keys: ['eng team'],
      externalIds: ['G-1'],
    });
    expect(narrowed(`members.value eq "${UUID}"`, GROUP_KEYS)).toBeNull();
    expect(narrowed('emails.value eq "a@b.co"', GROUP_KEYS)).toBeNull();
  });
});

describe('matching', () => {
  it('matches every resource without a filter, in order', () => {
    expect(matching(PEOPLE, null, USER_KEYS)).toEqual(PEOPLE);
  });

  it('compares userName without case, on both sides, and answers the resources unfolded', () => {
    const mixed = { ...ADA, userName: 'Ada@Example.COM' };
    expect(who('userName eq "ADA@example.com"', [mixed, BOB])).toEqual(['Ada@Example.COM']);
    expect(matching([mixed], parseFilter('userName eq "ada@example.com"', USER_KEYS), USER_KEYS)[0]).toBe(
      mixed,
    );
  });

  it('compares emails.value without case, and emails[type eq "work"].value by type', () => {
    expect(who('emails.value eq "BOB@Example.ORG"')).toEqual(['bob@example.org']);
    expect(who('emails[type eq "work"].value eq "Carol@Example.com"')).toEqual(['carol@example.com']);
    expect(who('emails[type eq "home"].value eq "carol@example.com"')).toEqual([]);
  });

  it('keeps the case of externalId', () => {
    expect(who('externalId eq "Okta-00A1"')).toEqual(['ada@example.com', 'carol@example.com']);
    expect(who('externalId eq "okta-00a1"')).toEqual([]);
  });

  it('matches active eq false / true', () => {
    expect(who('active eq false')).toEqual(['bob@example.org']);
    expect(who('active eq true')).toEqual(['ada@example.com', 'carol@example.com']);
  });

  it('combines and, or, not and parentheses', () => {
    expect(who('active eq true and userName ew "example.com"')).toEqual([
      'ada@example.com',
      'carol@example.com',
    ]);
    expect(who('userName eq "ada@example.com" or userName eq "BOB@example.org"')).toEqual([
      'ada@example.com',
      'bob@example.org',
    ]);
    expect(who('not (userName sw "ada")')).toEqual(['bob@example.org', 'carol@example.com']);
    expect(who('active eq true and (userName sw "C" or emails.value co "BOB")')).toEqual([
      'carol@example.com',
    ]);
  });

  it('compares with co, sw, ew and tests presence with pr', () => {
    expect(who('userName co "OB@"')).toEqual(['bob@example.org']);
    expect(who('userName sw "CAR"')).toEqual(['carol@example.com']);
    expect(who('userName ew ".ORG"')).toEqual(['bob@example.org']);
    expect(who('displayName pr')).toEqual(['ada@example.com', 'carol@example.com']);
    expect(who('externalId sw "Okta"')).toEqual(['ada@example.com', 'carol@example.com']);
  });

  it('compares Group displayName without case', () => {
    const groups = [{ displayName: 'Eng Team' }, { displayName: 'Sales' }];
    const hits = matching(groups, parseFilter('displayName eq "ENG team"', GROUP_KEYS), GROUP_KEYS);
    expect(hits).toEqual([{ displayName: 'Eng Team' }]);
  });

  // two comparisons of one attribute in one AND branch are a list of comparisons
  // ({userName: [["sw","ADA"],["ew","X.IO"]]}): each is folded
  it('folds both comparisons of one attribute in one AND branch', () => {
    expect(who('userName sw "ADA" and userName ew "EXAMPLE.COM"')).toEqual(['ada@example.com']);
  });

  // scimmy's match throws on a sub-attribute filter when a resource lacks the parent attribute (a user
  // without first and last name has no `name`): matching gives it an empty one
  it('filters by name.givenName while some users have no name', () => {
    const nameless = userResource(
      row({ first_name: null, last_name: null, email: 'x@example.com' }),
      [],
      BASE,
    );
    expect(who('name.givenName eq "Ada"', [nameless, ADA])).toEqual(['ada@example.com']);
  });
});

describe('paging', () => {
  it('starts at 1 with 100 a page by default', () => {
    expect(paging({})).toEqual({ startIndex: 1, count: 100 });
    expect(paging({ startIndex: '', count: '' })).toEqual({ startIndex: 1, count: 100 });
  });

  it('takes integers, as strings (with spaces around) or numbers', () => {
    expect(paging({ startIndex: '7', count: '25' })).toEqual({ startIndex: 7, count: 25 });
    expect(paging({ startIndex: ' 3 ', count: ' 0 ' })).toEqual({ startIndex: 3, count: 0 });
    expect(paging({ startIndex: 2, count: 50 })).toEqual({ startIndex: 2, count: 50 });
  });

  it('caps count at 200 and makes a negative count 0', () => {
    expect(paging({ count: '200' }).count).toBe(200);
    expect(paging({ count: '201' }).count).toBe(200);
    expect(paging({ count: '999999999' }).count).toBe(200);
    expect(paging({ count: '-5' }).count).toBe(0);
  });

  it('makes a startIndex below 1 1', () => {
    expect(paging({ startIndex: '0' }).startIndex).toBe(1);
    expect(paging({ startIndex: '-3' }).startIndex).toBe(1);
  });

  it.each(['1.5', 'abc', '1e3', '0x10', '10abc', '+5', '--1'])(
    'refuses the non-integer %p as startIndex or count with 400 invalidValue',
    (v) => {
      const refused = { status: 400, scimType: 'invalidValue' };
      expect(refusal(() => paging({ startIndex: v }))).toEqual(refused);
      expect(refusal(() => paging({ count: v }))).toEqual(refused);
    },
  );
});

describe('listResponse', () => {
  const all = ['a', 'b', 'c', 'd', 'e'];

  it('answers one page of all, counting all', () => {
    expect(listResponse(all, { startIndex: 2, count: 2 })).toEqual({
      schemas: [SCIM.list],
      totalResults: 5,
      startIndex: 2,
      itemsPerPage: 2,
      Resources: ['b', 'c'],
    });
  });

  it('answers a short last page, an empty page past the end, and the total only for count 0', () => {
    const page = (startIndex: number, count: number) => {
      const r = listResponse(all, { startIndex, count });
      return [r.totalResults, r.startIndex, r.itemsPerPage, r.Resources];
    };
    expect(page(4, 100)).toEqual([5, 4, 2, ['d', 'e']]);
    expect(page(9, 10)).toEqual([5, 9, 0, []]);
    expect(page(1, 0)).toEqual([5, 1, 0, []]);
  });
});

describe('projection', () => {
  it('is null without attributes or excludedAttributes (or with blank lists)', () => {
    expect(projection({})).toBeNull();
    expect(projection({ attributes: '', excludedAttributes: ' , ' })).toBeNull();
  });

  it('attributes: only those, with id and schemas (no projection: the resource as it is)', () => {
    expect(project(ADA, 'User', null)).toBe(ADA);
    expect(project(ADA, 'User', projection({ attributes: 'userName' }))).toEqual({
      schemas: [SCIM.user, SCIM.enterprise],
      id: UUID,
      userName: 'ada@example.com',
    });
    expect(project(ADA, 'User', projection({ attributes: ' name.givenName , emails ' }))).toEqual({
      schemas: [SCIM.user, SCIM.enterprise],
      id: UUID,
      name: { givenName: 'Ada' },
      emails: [{ value: 'ada@example.com', type: 'work', primary: true }],
    });
  });

  it('excludedAttributes: all but those', () => {
    const shown = project(ADA, 'User', projection({ excludedAttributes: 'groups,emails' }));
    expect(Object.keys(shown).sort()).toEqual(
      [
        'schemas',
        'id',
        'externalId',
        'userName',
        'name',
        'displayName',
        'active',
        'meta',
        SCIM.enterprise,
      ].sort(),
    );
    expect(shown).toMatchObject({ userName: 'ada@example.com', meta: ADA.meta, active: true });
  });

  it('excludedAttributes=members hides a group’s members', () => {
    const dates = { date_created: AT, date_modified: AT };
    const group = groupResource(
      { id: UUID, name: 'Eng', external_id: null, roles: [], ...dates },
      [ADA_MEMBER],
      BASE,
    );
    expect(project(group, 'Group', projection({ excludedAttributes: 'members' }))).toEqual({
      schemas: [SCIM.group],
      id: UUID,
      displayName: 'Eng',
      meta: group.meta,
    });
  });

  it('refuses what names no attribute with 400 invalidValue', () => {
    expect(refusal(() => projection({ attributes: 'user name' }))).toEqual({
      status: 400,
      scimType: 'invalidValue',
    });
    expect(refusal(() => projection({ excludedAttributes: '(emails' }))).toEqual({
      status: 400,
      scimType: 'invalidValue',
    });
  });
});
