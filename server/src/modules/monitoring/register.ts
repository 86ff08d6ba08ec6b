import { registerTopic } from '../../realtime/topics.ts';
import { monitoringTopic } from './live.ts';

/** Plugs the monitoring tables' live topic into the realtime socket (modules/setup.ts). */
export function registerMonitoring(): void {
  registerTopic('monitoring', monitoringTopic);
}
