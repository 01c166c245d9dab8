/**
 * The docs pages' tables, from custom-elements.json: the public API only. Storybook's own reader
 * lists every class member, private `#fields` and protected ones included (with their source code
 * as "default"), no methods, and puts an object control on events and parts. Here: attributes and
 * public properties (a control where the type is plain: text, number, boolean, a set of strings), public methods with their signatures,
 * events, slots, parts, CSS custom properties and custom states as tables without controls, and
 * the element's own description.
 */
import { getCustomElements } from '@storybook/web-components-vite';
import type { StrictArgTypes } from 'storybook/internal/types';

interface Item {
  name: string;
  kind?: string;
  description?: string;
  summary?: string;
  privacy?: string;
  static?: boolean;
  readonly?: boolean;
  attribute?: string;
  type?: { text?: string };
  default?: string;
  parameters?: Array<{ name: string; type?: { text?: string }; optional?: boolean }>;
  return?: { type?: { text?: string } };
}
interface Declaration {
  tagName?: string;
  summary?: string;
  description?: string;
  members?: Item[];
  attributes?: Item[];
  events?: Item[];
  slots?: Item[];
  cssParts?: Item[];
  cssProperties?: Item[];
  cssStates?: Item[];
}
interface Manifest {
  modules?: Array<{ declarations?: Declaration[] }>;
}

function declarationOf(tagName: string): Declaration | undefined {
  const manifest = getCustomElements() as Manifest | undefined;
  for (const m of manifest?.modules ?? []) for (const d of m.declarations ?? []) if (d.tagName === tagName) return d;
  return undefined;
}

/** Public: no `#private` or `_internal` name, not marked private or protected, not a static member. */
const isPublic = (m: Item) => !/^[#_]/.test(m.name) && !m.privacy && !m.static;
/** The platform's callbacks (form-associated custom elements): the browser calls them, a page never does. */
const isCallback = (m: Item) => /Callback$/.test(m.name);

const text = (i: Item) => [i.summary, i.description].filter(Boolean).join('\n\n');

function row(i: Item, category: string, type: string | undefined, extra: Record<string, unknown> = {}) {
  return {
    name: i.name,
    description: text(i),
    ...(type ? { type: { name: 'other' as const, value: type } } : {}),
    table: { category, type: type ? { summary: type } : undefined, defaultValue: undefined },
    ...extra,
  };
}

/**
 * A control for a property or attribute of a plain type (text, number, boolean, a set of strings),
 * as Storybook infers one; none for the others (objects, functions): a page sets those in code.
 */
function controlType(text: string | undefined): Record<string, unknown> {
  const t = (text ?? '').replace(/\s*\|\s*undefined/g, '').trim();
  if (t === 'string') return { type: { name: 'string' } };
  if (t === 'number') return { type: { name: 'number' } };
  if (t === 'boolean') return { type: { name: 'boolean' } };
  const literals = t.split('|').map((p) => p.trim());
  if (literals.length > 1 && literals.every((p) => /^'[^']*'$/.test(p)))
    return { type: { name: 'enum', value: literals.map((p) => p.slice(1, -1)) } };
  return { control: false };
}

const signature = (m: Item) =>
  `(${(m.parameters ?? []).map((p) => `${p.name}${p.optional ? '?' : ''}: ${p.type?.text ?? 'unknown'}`).join(', ')}) => ${m.return?.type?.text ?? 'void'}`;

export function publicArgTypes(tagName: string): StrictArgTypes | null {
  const d = declarationOf(tagName);
  if (!d) return null;
  const out: StrictArgTypes = {};
  const add = (key: string, value: StrictArgTypes[string]) => {
    if (!(key in out)) out[key] = value;
  };
  const members = (d.members ?? []).filter(isPublic);
  // Attributes first; a property with an attribute is named in its row (`bgColor` / `bg-color`).
  const attributeOf = new Map((d.attributes ?? []).map((a) => [a.name, a]));
  for (const m of members.filter((m) => m.kind === 'field')) {
    const attribute = m.attribute ? attributeOf.get(m.attribute) : undefined;
    const type = m.type?.text;
    const r = row(m, m.readonly ? 'properties (read-only)' : 'properties', type, {});
    Object.assign(r, m.readonly ? { control: false } : controlType(type));
    if (attribute && attribute.name !== m.name) r.description = `Attribute \`${attribute.name}\`. ${r.description}`;
    if (m.default !== undefined && !m.readonly) r.table.defaultValue = { summary: m.default } as never;
    add(m.name, r as StrictArgTypes[string]);
  }
  for (const a of d.attributes ?? []) {
    // An attribute whose property is listed already (same name) is that row.
    if (out[a.name]) continue;
    const r = row(a, 'attributes', a.type?.text, {});
    Object.assign(r, controlType(a.type?.text));
    if (a.default !== undefined) r.table.defaultValue = { summary: a.default } as never;
    add(a.name, r as StrictArgTypes[string]);
  }
  for (const m of members.filter((m) => m.kind === 'method' && !isCallback(m)))
    add(`${m.name}()`, row(m, 'methods', signature(m), { control: false }) as StrictArgTypes[string]);
  for (const e of d.events ?? [])
    if (e.name)
      add(`event ${e.name}`, { ...row(e, 'events', e.type?.text, { control: false }), name: e.name } as never);
  for (const s of d.slots ?? [])
    add(`slot ${s.name || '(default)'}`, {
      ...row(s, 'slots', undefined, { control: false }),
      name: s.name || '(default)',
    } as never);
  for (const p of d.cssParts ?? [])
    add(`part ${p.name}`, { ...row(p, 'css shadow parts', undefined, { control: false }), name: p.name } as never);
  for (const p of d.cssProperties ?? [])
    add(`css ${p.name}`, {
      ...row(p, 'css custom properties', undefined, { control: false }),
      name: p.name,
      table: { category: 'css custom properties', defaultValue: p.default ? { summary: p.default } : undefined },
    } as never);
  for (const s of d.cssStates ?? [])
    add(`state ${s.name}`, {
      ...row(s, 'css custom states', undefined, { control: false }),
      name: `:state(${s.name})`,
    } as never);
  return out;
}

export function componentDescription(tagName: string): string | null {
  const d = declarationOf(tagName);
  return d ? text(d as Item) || null : null;
}
