/** Admin: the emulator's request log, newest first. */
import { useState } from 'react';
import { listRequests, type LoggedRequest } from '../emulator/control.js';
import { DataTable } from '../ui/data-table.js';
import { formatTime, statusBadgeClass } from '../ui/format.js';
import { PageHeader } from '../ui/page.js';
import { QueryView } from '../ui/query-view.js';
import { useAdminClient } from './admin-client.js';
import { useControlQuery } from '../emulator/control-query.js';

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

/** Every request the emulator answered: method, path, status, duration and caller. */
export function RequestsPage() {
  const client = useAdminClient();
  const [hideConsoleFiles, setHideConsoleFiles] = useState(true);
  const requests = useControlQuery('requests', client, (admin, signal) => listRequests(admin, shown, signal), 2_000);
  const rows = (requests.data ?? []).filter((request) => !hideConsoleFiles || !isConsoleFile(request));
  return (
    <>
      <PageHeader
        title="Request log"
        description={`The last ${shown} requests the emulator answered, refreshed every two seconds.`}
      />
      <label className="check">
        <input
          type="checkbox"
          checked={hideConsoleFiles}
          onChange={(event) => setHideConsoleFiles(event.target.checked)}
        />
        Hide the console's own files (pages, scripts, styles)
      </label>
      <QueryView
        query={{ ...requests, data: requests.data && rows }}
        loading="Reading the request log…"
        errorTitle="Could not read the request log"
        emptyTitle="No requests yet"
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
                  {request.path}
                </td>
                <td className="small">{request.operationId ?? '—'}</td>
                <td>
                  <span className={`badge ${statusBadgeClass(request.status)}`}>{request.status}</span>
                </td>
                <td className="small">{request.durationMs.toFixed(1)} ms</td>
                <td className="small">{callerText(request.caller)}</td>
              </>
            )}
          />
        )}
      </QueryView>
    </>
  );
}
