import { plug } from '../../plug-points.ts';
import { RATING_PUSH } from '../ratings/service.ts';
import { pushToVisitor } from './gateway.ts';

/** The site widget plugs in: its visitors' socket hub carries the ratings' requests to their open widgets. */
export function registerWidget(): void {
  plug(RATING_PUSH, (app, channelId, visitorId, rating) =>
    pushToVisitor(app, channelId, visitorId, { type: 'rating', rating }),
  );
}
