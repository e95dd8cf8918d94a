// The wp/v2 operations, transport-free: Collections hands every call of a WpResource here.

import type { Tx, Core } from '../api/context.ts';
import { fail } from '../api/wordpress/errors.ts';
import type { RestCall, RestResult, WpResource } from '../api/wordpress/types.ts';
import { WpPosts } from './posts.ts';
import { WpTerms } from './terms.ts';
import { WpUsers } from './users.ts';

export const isWpResource = (resource: string): resource is WpResource => resource.startsWith('wp-');

export class WpCore {
  private readonly terms: WpTerms;
  private readonly posts: WpPosts;
  private readonly users: WpUsers;

  /** `commit`: how a write is applied, rendered and made durable (Collections' write path). */
  constructor(
    core: Core,
    private readonly commit: (tx: Tx, render: () => RestResult) => Promise<RestResult>,
  ) {
    this.terms = new WpTerms(core);
    this.posts = new WpPosts(core);
    this.users = new WpUsers(core);
  }

  async rest(call: RestCall): Promise<RestResult> {
    switch (call.resource as WpResource) {
      case 'wp-tags':
        return this.terms.rest('post_tag', call, this.commit);
      case 'wp-categories':
        return this.terms.rest('tribe_events_cat', call, this.commit);
      case 'wp-events':
        return this.posts.rest('event', call);
      case 'wp-venues':
        return this.posts.rest('venue', call);
      case 'wp-organizers':
        return this.posts.rest('organizer', call);
      case 'wp-users':
      case 'wp-me':
        return this.users.rest(call);
    }
    throw fail('rest_no_route');
  }
}
