import { useState } from 'preact/hooks';

/** The cursor pages a list walked through: this page's cursor, and how to move. */
export interface CursorPages {
  /** This page's cursor (undefined for the first page). */
  cursor: string | undefined;
  /** True on the first page. */
  first: boolean;
  /** Goes to the page after this one, which starts at `next`. */
  forward: (next: string) => void;
  /** Goes back to the page before this one. */
  back: () => void;
  /** Goes back to the first page (a new search). */
  restart: () => void;
}

/**
 * The cursors of the pages walked through, so a server-paginated list can go back: the server
 * answers a `nextCursor`, never a previous one.
 */
export function useCursorPages(): CursorPages {
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  return {
    cursor: cursors[cursors.length - 1],
    first: cursors.length === 1,
    forward: (next) => setCursors([...cursors, next]),
    back: () => setCursors(cursors.slice(0, -1)),
    restart: () => setCursors([undefined]),
  };
}

/** The previous and next buttons of a server-paginated list; `label` names the list. */
export function Pager({
  pages,
  nextCursor,
  label = 'Pages',
}: {
  pages: CursorPages;
  nextCursor: string | null | undefined;
  label?: string;
}) {
  return (
    <nav aria-label={label} class="pager">
      <button type="button" disabled={pages.first} onClick={pages.back}>
        Previous page
      </button>
      <button
        type="button"
        disabled={!nextCursor}
        onClick={() => nextCursor && pages.forward(nextCursor)}
      >
        Next page
      </button>
    </nav>
  );
}
