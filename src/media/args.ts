// The routes of WordPress core's /wp/v2/media in the route table (src/api/args.ts): the router,
// OPTIONS, the discovery indexes and /doc all read them from there.

import { CREATABLE, DELETABLE, EDITABLE, READABLE, type ArgSpec, type Args, type RouteSpec } from '../api/args.ts';
import { POST_ORDERBY } from '../wp-core/args.ts';

export const MEDIA_NAMESPACE = 'wp/v2';

const id: ArgSpec = { type: 'integer', in: 'path', required: true, description: 'the attachment post ID' };
const ids = (description: string): ArgSpec => ({ type: 'array', items: { type: 'integer' }, description });

const fields: Args = {
  title: {
    type: ['string', 'object'],
    description: 'the title (a string, or {"raw": string}); on upload default the file name without its extension',
  },
  caption: { type: ['string', 'object'], description: 'the caption (HTML)' },
  description: { type: ['string', 'object'], description: 'the description (HTML)' },
  alt_text: { type: 'string', description: 'the alternative text of the image' },
  post: {
    type: 'integer',
    description: 'the event, venue or organizer the file is attached to (0: none); the caller must be able to edit it',
  },
};

const listArgs: Args = {
  page: { type: 'integer', default: 1, description: 'the page of the collection (positive integer)' },
  per_page: { type: 'integer', default: 10, description: 'items per page, 1 to 100' },
  search: {
    type: 'string',
    description: 'items whose title, caption, description or file name contain every word of this string',
  },
  media_type: {
    type: ['string', 'array'],
    items: { type: 'string' },
    enum: ['image', 'video', 'text', 'application', 'audio'],
    description: 'only items of these media types (every upload is an image)',
  },
  mime_type: {
    type: ['string', 'array'],
    items: { type: 'string' },
    description: 'only items of these MIME types (image/jpeg, image/png, image/gif, image/webp)',
  },
  parent: ids('only items attached to these post ids (0: unattached)'),
  parent_exclude: ids('leave out items attached to these post ids'),
  include: ids('only these attachment ids'),
  exclude: ids('leave out these attachment ids'),
  author: ids('only items uploaded by these user ids'),
  author_exclude: ids('leave out items uploaded by these user ids'),
  orderby: {
    type: 'string',
    default: 'date',
    enum: [...POST_ORDERBY],
    description: 'the attribute to sort by',
  },
  order: { type: 'string', default: 'desc', enum: ['asc', 'desc'], description: 'sort direction' },
};

export function mediaRoutes(): RouteSpec[] {
  return [
    {
      namespace: MEDIA_NAMESPACE,
      path: '/media',
      pattern: '/media',
      endpoints: [
        {
          methods: READABLE,
          op: { resource: 'media', action: 'list' },
          summary: 'List the media library',
          args: listArgs,
          responses: {
            '200': 'an array of media items; headers X-WP-Total and X-WP-TotalPages',
            '400': 'a parameter is invalid, or the page is past the last (rest_post_invalid_page_number)',
          },
        },
        {
          methods: CREATABLE,
          op: { resource: 'media', action: 'create' },
          summary:
            'Upload an image (JPEG, PNG, GIF or WebP): the raw file with Content-Disposition: attachment; filename=NAME and its Content-Type, or multipart/form-data with a `file` field',
          args: fields,
          responses: {
            '201': 'the new media item (Location header: its URL)',
            '400':
              'no data, no Content-Disposition or Content-Type, a file that is not a JPEG, PNG, GIF or WebP image, or a bad field',
            '401': 'not logged in',
            '403': 'the caller may not upload files (contributors, subscribers) or edit the post',
            '413': 'the file is larger than the upload limit (rest_upload_file_too_big)',
          },
        },
      ],
    },
    {
      namespace: MEDIA_NAMESPACE,
      path: '/media/{id}',
      pattern: '/media/(?P<id>[\\d]+)',
      endpoints: [
        {
          methods: READABLE,
          op: { resource: 'media', action: 'get' },
          summary: 'Get a media item',
          args: { id },
          responses: { '200': 'the media item', '404': 'no such item (rest_post_invalid_id)' },
        },
        {
          methods: EDITABLE,
          op: { resource: 'media', action: 'update' },
          summary: "Update a media item's title, caption, alt text, description or post",
          args: { id, ...fields },
          responses: {
            '200': 'the updated media item',
            '400': 'a bad field',
            '401': 'not logged in',
            '403': "not the caller's upload and not an editor",
            '404': 'no such item',
          },
        },
        {
          methods: DELETABLE,
          op: { resource: 'media', action: 'delete' },
          summary: 'Delete a media item and its files (force=true is required: media has no trash)',
          args: {
            id,
            force: { type: 'boolean', default: false, description: 'must be true: media items are deleted for good' },
          },
          responses: {
            '200': '{deleted: true, previous: the item as it was}',
            '401': 'not logged in',
            '403': "not the caller's upload and not an editor",
            '404': 'no such item',
            '501': 'force was not true (rest_trash_not_supported)',
          },
        },
      ],
    },
  ];
}
