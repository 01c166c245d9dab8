/**
 * `styleProps({ inlineSize: '40%' })`: sets inline styles through CSSOM (`style.setProperty`),
 * never through the `style` attribute. Lit's styleMap writes its first render as an attribute
 * string, which a strict Content-Security-Policy (`style-src` without 'unsafe-inline') blocks;
 * CSSOM changes are allowed.
 */
import { noChange } from 'lit';
import { Directive, directive, PartType, type AttributePart, type PartInfo } from 'lit/directive.js';

type Props = Record<string, string | undefined | null>;

const kebab = (name: string) => (name.startsWith('--') ? name : name.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase()));

class StylePropsDirective extends Directive {
  #previous = new Set<string>();

  constructor(part: PartInfo) {
    super(part);
    if (part.type !== PartType.ATTRIBUTE || part.name !== 'style')
      throw new Error('styleProps() belongs in a style attribute binding: style=${styleProps({...})}');
  }

  render(_props: Props): typeof noChange {
    return noChange;
  }

  override update(part: AttributePart, [props]: [Props]): typeof noChange {
    const style = (part.element as HTMLElement).style;
    const next = new Set<string>();
    for (const [key, value] of Object.entries(props)) {
      if (value === undefined || value === null) continue;
      const name = kebab(key);
      next.add(name);
      style.setProperty(name, value);
    }
    for (const name of this.#previous) if (!next.has(name)) style.removeProperty(name);
    this.#previous = next;
    return noChange;
  }
}

export const styleProps = directive(StylePropsDirective);
