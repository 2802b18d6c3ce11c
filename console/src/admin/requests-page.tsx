/**
 * Admin: the emulator's request log, newest first, filtered by status, path and caller (the filters
 * live in the URL). A row opens to the whole exchange: method, path, status, duration, caller, why
 * it was allowed or refused, and both bodies (the emulator redacts tokens and passwords).
 */
import { useState, type FormEvent } from 'react';
import { useRouter } from '../app/router.js';
import { listRequests, type LoggedRequest, type RequestLogFilter } from '../emulator/control.js';
import { useControlQuery } from '../emulator/control-query.js';
import { DataTable } from '../ui/data-table.js';
import { FactList } from '../ui/fact-list.js';
import { Dialog } from '../ui/dialog.js';
import { formatTime, statusBadgeClass } from '../ui/format.js';
import { PageHeader } from '../ui/page.js';
import { QueryView } from '../ui/query-view.js';
import { useAdminClient } from './admin-client.js';

/** How many log lines the page shows. */
const shown = 200;

/** Whether a logged request is a file of the console itself (not an API call). */
function isConsoleFile(request: LoggedRequest): boolean {
  return !request.operationId && !request.path.startsWith('/_');
}

/** The caller in a few words: `member <id>`, `visitor`, `elevated`, `anonymous`, or a dash when none was named. */
function callerText(caller: LoggedRequest['caller']): string {
  if (!caller) return '—';
  if (!caller.authenticated) return 'anonymous';
  return caller.kind == 'member' ? `member ${caller.memberId}` : caller.kind;
}

/** The filters a URL names (`?status=403&path=/wix-data&caller=visitor`), or why one cannot be used. */
function filterFrom(search: URLSearchParams): { filter: RequestLogFilter; problem?: string } {
  const statusText = search.get('status')?.trim();
  const status = Number(statusText);
  // 0 is a status here: the log's status of a connection a fault rule dropped.
  const statusProblem =
    statusText && !(/^\d+$/.test(statusText) && (status === 0 || (status >= 100 && status <= 599)))
      ? `Status "${statusText}" is not an HTTP status: give a number such as 403 (or 0 for a dropped connection).`
      : undefined;
  const filter: RequestLogFilter = {
    limit: shown,
    ...(statusText && !statusProblem ? { status } : {}),
    ...(search.get('path') ? { path: search.get('path')! } : {}),
    ...(search.get('caller') ? { caller: search.get('caller')! } : {}),
  };
  return statusProblem ? { filter, problem: statusProblem } : { filter };
}

/** The fault rule's part in a request, in words; undefined when no rule touched it. */
function faultWords(request: LoggedRequest): string | undefined {
  if (!request.faultId) return undefined;
  if (!request.faultAnswered) return `Delayed by the fault rule ${request.faultId}; the answer is the route's own.`;
  return request.status === 0
    ? `Connection dropped by the fault rule ${request.faultId}: the route never ran.`
    : `Answer injected by the fault rule ${request.faultId}: the route never ran.`;
}

/** Every request the emulator answered: method, path, status, duration and caller; a row opens to its details. */
export function RequestsPage() {
  const client = useAdminClient();
  const { search, navigate } = useRouter();
  const { filter, problem } = filterFrom(search);
  const [hideConsoleFiles, setHideConsoleFiles] = useState(true);
  const [opened, setOpened] = useState<LoggedRequest | null>(null);
  const requests = useControlQuery(
    `requests ${JSON.stringify(filter)}`,
    client,
    (admin, signal) => listRequests(admin, filter, signal),
    2_000,
    !problem,
  );
  const rows = (requests.data ?? []).filter((request) => !hideConsoleFiles || !isConsoleFile(request));
  const applyFilters = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const query = new URLSearchParams();
    for (const name of ['status', 'path', 'caller']) {
      const value = String(form.get(name) ?? '').trim();
      if (value) query.set(name, value);
    }
    navigate(`/admin/requests${query.size ? `?${query.toString()}` : ''}`);
  };
  return (
    <>
      <PageHeader
        title="Request log"
        description={`The last ${shown} requests the emulator answered, refreshed every two seconds. Open a row for its bodies and why it was allowed or refused.`}
      />
      {/* Keyed by the URL's filters, so Back and links show theirs in the fields. */}
      <form className="row" aria-label="Filter requests" onSubmit={applyFilters} key={search.toString()}>
        <label className="field">
          Status
          <input
            name="status"
            inputMode="numeric"
            placeholder="e.g. 403"
            defaultValue={search.get('status') ?? ''}
            aria-invalid={problem ? true : undefined}
          />
        </label>
        <label className="field">
          Path starts with
          <input name="path" placeholder="/wix-data/v2/items" defaultValue={filter.path ?? ''} />
        </label>
        <label className="field field-wide">
          Caller
          <input
            name="caller"
            list="caller-kinds"
            placeholder="visitor, member, elevated or an id"
            defaultValue={filter.caller ?? ''}
          />
          <datalist id="caller-kinds">
            <option value="visitor" />
            <option value="member" />
            <option value="elevated" />
          </datalist>
        </label>
        <button type="submit">Filter</button>
        {search.size > 0 && (
          <button type="button" className="secondary" onClick={() => navigate('/admin/requests')}>
            Clear
          </button>
        )}
      </form>
      <label className="check">
        <input
          type="checkbox"
          checked={hideConsoleFiles}
          onChange={(event) => setHideConsoleFiles(event.target.checked)}
        />
        Hide the console's own files (pages, scripts, styles)
      </label>
      {problem ? (
        <div className="notice notice-error" role="alert" data-testid="filter-problem">
          {problem}
        </div>
      ) : (
        <QueryView
          query={{ ...requests, data: requests.data && rows }}
          loading="Reading the request log…"
          errorTitle="Could not read the request log"
          emptyTitle={search.size > 0 ? 'No request matches these filters' : 'No requests yet'}
        >
          {(shownRows) => (
            <DataTable
              testId="requests-table"
              headings={['Time', 'Method', 'Path', 'Operation', 'Status', 'Duration', 'Caller']}
              rows={shownRows}
              rowKey={(request) => request.requestId}
              cells={(request) => (
                <>
                  <td className="muted small">{formatTime(request.time)}</td>
                  <td className="mono">{request.method}</td>
                  <td className="mono cell-clip" title={request.path}>
                    <button
                      type="button"
                      className="link-button"
                      aria-label={`Open ${request.method} ${request.path}`}
                      onClick={() => setOpened(request)}
                    >
                      {request.path}
                    </button>
                  </td>
                  <td className="small">{request.operationId ?? '—'}</td>
                  <td>
                    <span className={`badge ${statusBadgeClass(request.status)}`}>{request.status}</span>
                    {request.faultId && (
                      <span className="badge badge-accent" title={faultWords(request)} data-testid="fault-badge">
                        {request.faultAnswered ? 'injected' : 'delayed'}
                      </span>
                    )}
                    {request.decision && !request.decision.allowed && (
                      <div className="small muted" data-testid="refusal-reason">
                        {refusalWords(request)}
                      </div>
                    )}
                  </td>
                  <td className="small">{request.durationMs.toFixed(1)} ms</td>
                  <td className="small">{callerText(request.caller)}</td>
                </>
              )}
            />
          )}
        </QueryView>
      )}
      <Dialog
        open={opened !== null}
        title={opened ? `${opened.method} ${opened.path}` : 'Request'}
        onClose={() => setOpened(null)}
      >
        {opened && <RequestDetails request={opened} />}
      </Dialog>
    </>
  );
}

/** Why a refused call was refused, in one line: the rule, then the reason. */
function refusalWords(request: LoggedRequest): string {
  const decision = request.decision!;
  const enforced = decision.enforced === false ? ' (only logged: the call went through)' : '';
  return `Refused${enforced}: ${decision.rule}. ${decision.reason.charAt(0).toUpperCase()}${decision.reason.slice(1)}.`;
}

/** One request in full. */
function RequestDetails({ request }: { request: LoggedRequest }) {
  const facts: [string, string][] = [
    ['Time', new Date(request.time).toLocaleString()],
    ['Method', request.method],
    ['Path', request.path],
    ['Operation', request.operationId ?? '—'],
    ['Status', String(request.status)],
    ['Duration', `${request.durationMs.toFixed(1)} ms`],
    ['Caller', callerText(request.caller)],
    ['Request id', request.requestId],
    ...(request.faultId ? [['Fault rule', request.faultId] as [string, string]] : []),
  ];
  return (
    <div className="stack" data-testid="request-details">
      <FactList facts={facts} />
      {request.faultId && (
        <div className="notice notice-info" data-testid="fault-notice">
          <strong>{faultWords(request)}</strong>
          <span>Fault rules are set on the Test bench page (or with POST /_emulator/faults).</span>
        </div>
      )}
      {request.decision && (
        <div className={`notice ${request.decision.allowed ? 'notice-info' : 'notice-error'}`} data-testid="decision">
          <strong>{request.decision.allowed ? `Allowed: ${request.decision.rule}` : refusalWords(request)}</strong>
          {request.decision.allowed && <span>{request.decision.reason}</span>}
        </div>
      )}
      <h3>Request body</h3>
      <pre className="body-text" data-testid="request-body">
        {request.requestBody ?? '(none)'}
      </pre>
      <h3>Response body</h3>
      <pre className="body-text" data-testid="response-body">
        {request.responseBody ?? '(none)'}
      </pre>
      <p className="muted small">Tokens, passwords and codes are redacted by the emulator before the log is read.</p>
    </div>
  );
}
