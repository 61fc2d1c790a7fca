// The API's schedule methods over the schedule service (schedules/schedule-service.ts); a
// ScheduleError (a bad field, an unknown name, a run still waiting) becomes an InvalidRequestError.
import { apiError, type ApiHandlers } from '../../../../shared/api.ts';
import type { ScheduleService } from '../../schedules/schedule-service.ts';

type ScheduleHandlers = Pick<ApiHandlers, 'listSchedules' | 'saveSchedule' | 'removeSchedule' | 'runSchedule' | 'answerInbox'>;

export function scheduleHandlers(service: ScheduleService | undefined): ScheduleHandlers {
  const schedules = (): ScheduleService => {
    if (!service) throw apiError('UnavailableError', 'schedules are not available in this process');
    return service;
  };
  const asRequestError = (error: Error): never => {
    throw error.name === 'ScheduleError' || error.name === 'ControlError' ? apiError('InvalidRequestError', error.message) : error;
  };
  return {
    listSchedules: async () => schedules().view(),
    saveSchedule: async ({ schedule }) => {
      try {
        return schedules().save(schedule);
      } catch (error) {
        return asRequestError(error as Error);
      }
    },
    removeSchedule: async ({ name }) => {
      try {
        return schedules().remove(name);
      } catch (error) {
        return asRequestError(error as Error);
      }
    },
    runSchedule: ({ name }) => schedules().run(name).catch(asRequestError),
    answerInbox: ({ id, ...answer }) => schedules().answer(id, answer).catch(asRequestError),
  };
}
