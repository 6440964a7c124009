import { APIPromise } from './api-promise';
import type { APIResponse } from './request';

/** Fetches the page that starts at `cursor` (the first page when undefined). */
export type FetchPage<Item> = (cursor: string | undefined) => Promise<APIResponse<Page<Item>>>;

/** What one page of a list response holds. */
export interface PageInit<Item> {
  /** The items of this page. */
  items: Item[];
  /** True when another page follows. */
  hasMore: boolean;
  /** The cursor of the next page; null on the last page. */
  nextCursor: string | null;
}

/**
 * One page of a cursor-paginated list. Iterating it with `for await` walks this page and every
 * page after it.
 * @example
 * let page = await client.messages.list({ limit: 20 });
 * while (page) { show(page.items); page = await page.getNextPage(); }
 */
export class Page<Item> implements AsyncIterable<Item> {
  /** The items of this page. */
  readonly items: Item[];
  /** True when another page follows. */
  readonly hasMore: boolean;
  /** The cursor of the next page; null on the last page. */
  readonly nextCursor: string | null;
  readonly #fetchPage: FetchPage<Item>;

  constructor(init: PageInit<Item>, fetchPage: FetchPage<Item>) {
    this.items = init.items;
    this.hasMore = init.hasMore;
    this.nextCursor = init.nextCursor;
    this.#fetchPage = fetchPage;
  }

  /** True when {@link getNextPage} will fetch another page. */
  hasNextPage(): boolean {
    return this.hasMore && this.nextCursor !== null;
  }

  /** Fetches the next page with the same filters; null after the last page. */
  async getNextPage(): Promise<Page<Item> | null> {
    if (!this.hasNextPage() || this.nextCursor === null) return null;
    return (await this.#fetchPage(this.nextCursor)).data;
  }

  /** Yields this page and every page after it. */
  async *iterPages(): AsyncGenerator<Page<Item>, void, undefined> {
    let page: Page<Item> | null = this;
    while (page) {
      yield page;
      page = await page.getNextPage();
    }
  }

  /** Yields every item of this page and of every page after it. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    for await (const page of this.iterPages()) yield* page.items;
  }
}

/**
 * What list methods return: await it for the first {@link Page}, or iterate it with `for await`
 * to walk every item of every page.
 * @example for await (const message of client.messages.list({ status: 'failed' })) { … }
 */
export class PagePromise<Item> extends APIPromise<Page<Item>> implements AsyncIterable<Item> {
  /** Fetches the first page, then yields every item of every page. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Item, void, undefined> {
    const first = await this;
    yield* first;
  }
}

/** Starts fetching the first page of a list. */
export function paginate<Item>(fetchPage: FetchPage<Item>): PagePromise<Item> {
  return new PagePromise(fetchPage(undefined));
}
