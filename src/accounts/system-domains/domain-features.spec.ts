import type { FeatureConfigDto } from './dto/system-domain.dto.js';
import {
  checkedParameters,
  MAX_PARAMETER_BYTES,
  MAX_PARAMETER_DEPTH,
  replacedFeatures,
  withFeature,
} from './domain-features.js';

const config = (feature: string, parameters?: unknown) => ({ feature, parameters }) as FeatureConfigDto;
const invalid = expect.objectContaining({ status: 400, code: 'system_domains.INVALID' });

function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: 1 };
  for (let i = 1; i < levels; i++) value = { d: value };
  return value;
}

describe('domain features', () => {
  it('withFeature: adds a feature once; its parameters become the ones sent, none removes them', () => {
    const empty = { features: [], parameters: {} };
    const on = withFeature(empty, config('wm_publish_panel', { a: 1 }));
    expect(on).toEqual({ features: ['wm_publish_panel'], parameters: { wm_publish_panel: { a: 1 } } });
    expect(withFeature(on, config('wm_publish_panel', { b: [1] }))).toEqual({
      features: ['wm_publish_panel'],
      parameters: { wm_publish_panel: { b: [1] } },
    });
    for (const none of [undefined, null, {}]) {
      expect(withFeature(on, config('wm_publish_panel', none))).toEqual({
        features: ['wm_publish_panel'],
        parameters: {},
      });
    }
    expect(withFeature(on, config('shield'))).toEqual({
      features: ['wm_publish_panel', 'shield'],
      parameters: { wm_publish_panel: { a: 1 } },
    });
  });

  it('withFeature: at most 100 features; a refusal leaves the input as it was', () => {
    const full = { features: Array.from({ length: 100 }, (_, i) => `f${i}`), parameters: {} };
    expect(() => withFeature(full, config('one_more'))).toThrow(expect.objectContaining({ status: 400 }));
    expect(withFeature(full, config('f3', { x: 1 })).features).toHaveLength(100);
    expect(full.parameters).toEqual({});
  });

  it('checkedParameters: objects within the size and depth bounds; anything else is a 400', () => {
    expect(checkedParameters(nested(MAX_PARAMETER_DEPTH))).toEqual(nested(MAX_PARAMETER_DEPTH));
    const refused = [
      nested(MAX_PARAMETER_DEPTH + 1),
      { blob: 'x'.repeat(MAX_PARAMETER_BYTES) },
      { list: [[[[[[1]]]]]] },
      [1, 2],
      'on',
      3,
    ];
    for (const p of refused) {
      let thrown: unknown;
      try {
        checkedParameters(p);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toEqual(invalid);
    }
  });

  it('replacedFeatures: the list as sent, keeping only the parameters of the features it keeps', () => {
    const current = { features: ['a', 'b'], parameters: { a: { x: 1 }, b: { y: 2 } } };
    expect(replacedFeatures(current, ['b', 'c'])).toEqual({
      features: ['b', 'c'],
      parameters: { b: { y: 2 } },
    });
    expect(replacedFeatures(current, [])).toEqual({ features: [], parameters: {} });
  });
});
