/** generated/routes.ts: the route table the emulator serves and validates against. */
import { HEADER } from './header.js';
import type { DefinitionFiles } from './load.js';
import type { Doc, OperationEntry } from './model.js';
import { hasBody, parametersOf, requestSchema, responseSchema } from './walk.js';

/** One route per operation: Fastify-style URL, where each path parameter comes from, and the JSON schemas. */
export function emitRoutes(doc: Doc, entries: OperationEntry[], files: DefinitionFiles): string {
  const routes = entries.map((entry) => {
    const params = parametersOf(doc, entry).filter((p) => p.in === 'path');
    const url = entry.path.replace(/\{([^}]+)\}/g, ':$1');
    return {
      operationId: entry.op.operationId,
      namespace: entry.op.tags![0],
      method: entry.method,
      url,
      params: Object.fromEntries(params.map((p) => [p.name, p['x-sitekit-from'] ?? p.name])),
      [hasBody(entry) ? 'body' : 'query']: requestSchema(doc, entry),
      response: responseSchema(doc, entry),
      file: files.operations[entry.op.operationId!],
    };
  });
  let out = `${HEADER}/* The emulator's route table. JSON schemas use $ref into \`components\` (#/components/schemas/...). */\n\n`;
  out += `/** One route of the platform API. */\nexport interface Route {\n  operationId: string;\n  namespace: string;\n  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';\n  /** Fastify-style URL (\`:param\`). */\n  url: string;\n  /** Path parameter → the request field (dotted wire path) it must equal. */\n  params: Record<string, string>;\n  /** Request body schema (POST, PUT, PATCH). */\n  body?: unknown;\n  /** Query schema (GET, DELETE): the request object with its path parameters. */\n  query?: unknown;\n  response: unknown;\n  /** The schema file that declares the operation (\`schema/data-items.yaml\`). */\n  file: string;\n}\n\n`;
  out += `/** Every route. */\nexport const routes: readonly Route[] = ${JSON.stringify(routes, null, 2)};\n\n`;
  out += `/** The component schemas the routes refer to. */\nexport const components: { schemas: Record<string, unknown> } = ${JSON.stringify({ schemas: doc.components.schemas }, null, 2)};\n`;
  out += `\n/** The schema file that declares each component schema, by name. */\nexport const componentFiles: Readonly<Record<string, string>> = ${JSON.stringify(files.schemas, null, 2)};\n`;
  return out;
}
