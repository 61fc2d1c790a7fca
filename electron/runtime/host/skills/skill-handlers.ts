// The API's skill methods over the skills service (skills-service.ts); a SkillRequestError (an
// unknown skill, a bad root, a taken name) becomes an InvalidRequestError naming what to fix.
import { apiError, type ApiHandlers } from '../../../../shared/api.ts';
import { SKILL_API_METHODS } from '../../../../shared/api-skills.ts';
import type { SkillsService } from './skills-service.ts';

type SkillHandlers = Pick<ApiHandlers, (typeof SKILL_API_METHODS)[number]>;

export function skillHandlers(service: SkillsService | undefined): SkillHandlers {
  const skills = (): SkillsService => {
    if (!service) throw apiError('UnavailableError', 'skills are not available in this process');
    return service;
  };
  const asked = async <T>(run: () => T): Promise<T> => {
    try {
      return run();
    } catch (error) {
      const e = error as Error;
      throw e.name === 'SkillRequestError' ? apiError('InvalidRequestError', e.message) : e;
    }
  };
  return {
    listSkills: () => asked(() => skills().view()),
    setSkillEnabled: ({ id, enabled }) => asked(() => skills().setEnabled(id, enabled)),
    setSkillNetwork: ({ id, granted }) => asked(() => skills().setNetwork(id, granted)),
    setSkillRoots: ({ roots }) => asked(() => skills().setRoots(roots)),
    setSkillToolSet: ({ id, accept }) => asked(() => skills().setToolSet(id, accept)),
    createSkill: ({ name }) => asked(() => skills().create(name)),
  };
}
