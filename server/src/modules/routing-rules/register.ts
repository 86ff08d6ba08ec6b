import { registerStage } from '../../jobs/pipeline.ts';
import { rulesStage } from './stage.ts';

/** The routing rules' slot in the conversation pipeline. */
export function registerRoutingRules(): void {
  registerStage('rules', rulesStage);
}
