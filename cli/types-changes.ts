/**
 * What changed between two files written by the `types` command, in words (`--check` names it):
 * collections added or removed, fields added, removed or retyped. Reads only the layout the
 * generator writes (./site-types.ts).
 */

/** Collection ID → field key → the field's declaration text. */
type Declarations = Map<string, Map<string, string>>;

/** The registered collections (`    Movies: Movie;` in `SiteCollections`): collection ID → interface name. */
function registrations(source: string): Map<string, string> {
  // Stryker disable next-line StringLiteral: any text without the registration's lines gives none
  const block = /interface SiteCollections \{\n([\s\S]*?)\n {2}\}/.exec(source)?.[1] ?? '';
  const found = new Map<string, string>();
  for (const match of block.matchAll(/^ {4}("(?:[^"\\]|\\.)*"|[\w$]+): ([\w$]+);$/gm)) {
    // Stryker disable next-line MethodExpression: a quoted ID starts and ends with '"', an identifier has none
    found.set(match[1]!.startsWith('"') ? (JSON.parse(match[1]!) as string) : match[1]!, match[2]!);
  }
  return found;
}

/** The properties of an interface: key → its declaration (nested object types included). */
function interfaceProperties(source: string, name: string): Map<string, string> {
  const body = new RegExp(`^export interface ${name.replace(/\$/g, '\\$')} \\{\\n([\\s\\S]*?)^\\}`, 'm').exec(
    source,
  )?.[1];
  const properties = new Map<string, string>();
  if (!body) return properties;
  // A property starts at two spaces of indent; its declaration runs to the next one.
  const parts = body.split(/^(?= {2}(?:"(?:[^"\\]|\\.)*"|[\w$]+)\?: )/m);
  for (const part of parts) {
    const match = /^ {2}("(?:[^"\\]|\\.)*"|[\w$]+)\?: ([\s\S]*?);\n(?: {2}\/\*\*[\s\S]*)?$/.exec(part);
    if (!match) continue;
    // Stryker disable next-line MethodExpression: a quoted key starts and ends with '"', an identifier has none
    const key = match[1]!.startsWith('"') ? (JSON.parse(match[1]!) as string) : match[1]!;
    properties.set(key, match[2]!.replace(/\s+/g, ' '));
  }
  return properties;
}

function declarations(source: string): Declarations {
  const result: Declarations = new Map();
  for (const [collectionId, name] of registrations(source)) result.set(collectionId, interfaceProperties(source, name));
  return result;
}

/**
 * The differences of `next` from `current`, one line each (`Movies: field rating added (number)`);
 * a change of the file the words do not cover (a comment, a name) is reported as such.
 */
export function describeChanges(current: string, next: string): string[] {
  if (current === next) return [];
  const before = declarations(current);
  const after = declarations(next);
  const changes: string[] = [];
  for (const id of after.keys()) if (!before.has(id)) changes.push(`collection ${id} added`);
  for (const id of before.keys()) if (!after.has(id)) changes.push(`collection ${id} removed`);
  for (const [id, fields] of after) {
    const old = before.get(id);
    if (!old) continue;
    for (const [key, type] of fields) {
      const was = old.get(key);
      if (was === undefined) changes.push(`${id}: field ${key} added (${type})`);
      else if (was !== type) changes.push(`${id}: field ${key} changed from ${was} to ${type}`);
    }
    for (const key of old.keys()) if (!fields.has(key)) changes.push(`${id}: field ${key} removed`);
  }
  if (changes.length === 0) changes.push('the file differs from what the generator writes now (comments or names)');
  return changes;
}
