/**
 * Where the bodies of a tag end, for a finder that walks its open tags in order: at the close tag, or, when the tag
 * is not closed before the next open tag, at that open tag or the end of the text. The close tag is searched again
 * only once the walk has passed it, so a text of many unclosed open tags stays linear. Used by the `<tool_call>`,
 * `<function=…>` and `<parameter=…>` readers.
 */
export class TagBodies {
  private close = -2;

  constructor(
    private readonly text: string,
    private readonly openTag: string,
    private readonly closeTag: string,
  ) {}

  /** The body that starts at `bodyStart`: its end, and whether the close tag (at `bodyEnd`) ends it. */
  from(bodyStart: number): { bodyEnd: number; closed: boolean } {
    const { text } = this;
    if (this.close === -2 || (this.close >= 0 && this.close < bodyStart)) {
      this.close = text.indexOf(this.closeTag, bodyStart);
    }
    const next = text.indexOf(this.openTag, bodyStart);
    const closed = this.close >= 0 && (next < 0 || this.close < next);
    return { bodyEnd: closed ? this.close : next >= 0 ? next : text.length, closed };
  }
}
