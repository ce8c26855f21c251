import { jest } from '@jest/globals';
import type { WebflowContentEntity } from '../../base/model/webflow-content.entity.js';
import { WebflowContentService } from './webflow-content.service.js';
import { uniqueViolation } from '../../../test/utils/fakes.js';
import { NOW } from '../../../test/utils/fakes/fixtures.js';
import { construct } from '../../../test/utils/fakes/construct.js';

const UNIQUE = uniqueViolation();
const entry = (over: Partial<WebflowContentEntity> = {}) =>
  ({
    id: 'w1',
    slug: 'welcome',
    page_route: '/register',
    caption: 'Hello',
    category: null,
    image: null,
    name: null,
    date_created: NOW,
    date_modified: NOW,
    ...over,
  }) as WebflowContentEntity;

function setup() {
  const repo = {
    contentForRoute: jest.fn(async (_r: string): Promise<WebflowContentEntity | null> => entry()),
    insertContent: jest.fn(async (slug: string, f: object) => entry({ slug, ...f })),
    updateContent: jest.fn(async (slug: string, f: object): Promise<WebflowContentEntity | null> =>
      entry({ slug, ...f }),
    ),
    deleteContent: jest.fn(async (_slug: string) => true),
  };
  return { service: construct(WebflowContentService, repo), repo };
}

describe('WebflowContentService', () => {
  it('anyone reads a page route’s entry without its bookkeeping; none is CONTENT_NOT_FOUND', async () => {
    const s = setup();
    await expect(s.service.forRoute('/register')).resolves.toEqual({
      slug: 'welcome',
      caption: 'Hello',
      category: null,
      image: null,
      name: null,
    });
    s.repo.contentForRoute.mockResolvedValue(null);
    await expect(s.service.forRoute('/x')).rejects.toMatchObject({ code: 'onboarding.CONTENT_NOT_FOUND' });
  });

  it('stores absent fields as null, and a taken slug or page route is CONTENT_EXISTS', async () => {
    const s = setup();
    await s.service.create({ slug: 'welcome', page_route: '/register' });
    expect(s.repo.insertContent).toHaveBeenCalledWith('welcome', {
      page_route: '/register',
      caption: null,
      category: null,
      image: null,
      name: null,
    });
    s.repo.insertContent.mockRejectedValue(UNIQUE);
    await expect(s.service.create({ slug: 'welcome', page_route: '/register' })).rejects.toMatchObject({
      code: 'onboarding.CONTENT_EXISTS',
    });
    s.repo.updateContent.mockRejectedValue(UNIQUE);
    await expect(s.service.replace('welcome', { page_route: '/taken' })).rejects.toMatchObject({
      code: 'onboarding.CONTENT_EXISTS',
    });
  });

  it('a malformed slug is never looked up; an unknown one is CONTENT_NOT_FOUND', async () => {
    const s = setup();
    await expect(s.service.replace('../x', { page_route: '/r' })).rejects.toMatchObject({
      code: 'onboarding.CONTENT_NOT_FOUND',
    });
    await expect(s.service.remove('../x')).rejects.toMatchObject({ code: 'onboarding.CONTENT_NOT_FOUND' });
    expect(s.repo.updateContent).not.toHaveBeenCalled();
    expect(s.repo.deleteContent).not.toHaveBeenCalled();
    s.repo.updateContent.mockResolvedValue(null);
    s.repo.deleteContent.mockResolvedValue(false);
    await expect(s.service.replace('gone', { page_route: '/r' })).rejects.toMatchObject({
      code: 'onboarding.CONTENT_NOT_FOUND',
    });
    await expect(s.service.remove('gone')).rejects.toMatchObject({ code: 'onboarding.CONTENT_NOT_FOUND' });
  });
});
