/** Admin: the site's members, with approve, block, mute and unmute. */
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Member, MemberStatus } from 'sitekit-sdk';
import { mutationOptions, queryOptions } from 'sitekit-sdk/react';
import { DataTable } from '../ui/data-table.js';
import { ErrorNotice } from '../ui/error-notice.js';
import { formatDateTime } from '../ui/format.js';
import { PageHeader } from '../ui/page.js';
import { Pager } from '../ui/pager.js';
import { QueryView } from '../ui/query-view.js';
import { useAdminClient } from './admin-client.js';

const pageSize = 20;

type MemberAction = 'approve' | 'block' | 'mute' | 'unmute';

const statusBadge: Record<MemberStatus, string> = {
  APPROVED: 'badge-ok',
  PENDING: 'badge-warn',
  BLOCKED: 'badge-danger',
  OFFLINE: '',
  UNKNOWN: '',
};

/** Every member, newest first, optionally only those of one status. */
export function MembersPage() {
  const client = useAdminClient();
  const [offset, setOffset] = useState(0);
  const [status, setStatus] = useState<MemberStatus | ''>('');
  const [search, setSearch] = useState('');
  const [appliedSearch, setAppliedSearch] = useState('');

  const newestFirst = client.members
    .queryMembers({ fieldsets: ['FULL'], ...(appliedSearch ? { search: { expression: appliedSearch } } : {}) })
    .descending('_createdDate')
    .skip(offset)
    .limit(pageSize);
  const members = useQuery(queryOptions(status ? newestFirst.eq('status', status) : newestFirst));
  // Every member query refetches after an action.
  const act = useMutation(
    mutationOptions(client, (c, { action, member }: { action: MemberAction; member: Member }) => {
      const id = member._id ?? '';
      if (action === 'approve') return c.members.approveMember(id);
      if (action === 'block') return c.members.blockMember(id);
      if (action === 'mute') return c.members.muteMember(id);
      return c.members.unmuteMember(id);
    }),
  );
  const submitSearch = (event: FormEvent) => {
    event.preventDefault();
    setOffset(0);
    setAppliedSearch(search.trim());
  };
  return (
    <>
      <PageHeader title="Members" description="Everyone who registered on the demo site, and what they may do." />
      <div className="row-between">
        <form className="row" onSubmit={submitSearch} role="search">
          <input
            aria-label="Search members"
            placeholder="Search by name or email"
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
          <button type="submit" className="secondary">
            Search
          </button>
        </form>
        <label className="row">
          <span className="muted">Status</span>
          <select
            aria-label="Status"
            value={status}
            onChange={(event) => {
              setOffset(0);
              setStatus(event.target.value as MemberStatus | '');
            }}
          >
            <option value="">Any</option>
            <option value="PENDING">Pending</option>
            <option value="APPROVED">Approved</option>
            <option value="BLOCKED">Blocked</option>
          </select>
        </label>
      </div>
      {act.isError && <ErrorNotice title={`Could not ${act.variables?.action} the member`} error={act.error} />}
      <QueryView
        query={members}
        loading="Loading members…"
        errorTitle="Could not load the members"
        isEmpty={(page) => page.items.length === 0}
        emptyTitle="No members here"
        emptyHint="Members appear when someone registers in the site view."
      >
        {(page) => (
          <>
            <DataTable
              testId="members-table"
              headings={['Member', 'Status', 'Activity', 'Slug', 'Joined', '']}
              rows={page.items}
              rowKey={(member) => member._id}
              cells={(member) => (
                <>
                  <td>
                    <strong>{member.profile?.nickname || member.loginEmail || member._id}</strong>
                    <div className="muted small">{member.loginEmail}</div>
                  </td>
                  <td>
                    <span className={`badge ${member.status ? statusBadge[member.status] : ''}`}>
                      {member.status?.toLowerCase() ?? 'unknown'}
                    </span>
                  </td>
                  <td>
                    {member.activityStatus === 'MUTED' ? (
                      <span className="badge badge-warn">muted</span>
                    ) : (
                      <span className="muted">active</span>
                    )}
                  </td>
                  <td className="mono">{member.profile?.slug ?? '—'}</td>
                  <td className="muted small">{formatDateTime(member._createdDate)}</td>
                  <td className="actions">
                    <span className="row" style={{ justifyContent: 'flex-end' }}>
                      {member.status !== 'APPROVED' && (
                        <button
                          type="button"
                          className="small"
                          disabled={act.isPending}
                          onClick={() => act.mutate({ action: 'approve', member })}
                        >
                          {/* The platform unblocks by approving; the button says what it does for this member. */}
                          {member.status === 'BLOCKED' ? 'Unblock' : 'Approve'}
                        </button>
                      )}
                      {member.status !== 'BLOCKED' && (
                        <button
                          type="button"
                          className="secondary small"
                          disabled={act.isPending}
                          onClick={() => act.mutate({ action: 'block', member })}
                        >
                          Block
                        </button>
                      )}
                      {member.activityStatus === 'MUTED' ? (
                        <button
                          type="button"
                          className="secondary small"
                          disabled={act.isPending}
                          onClick={() => act.mutate({ action: 'unmute', member })}
                        >
                          Unmute
                        </button>
                      ) : (
                        <button
                          type="button"
                          className="secondary small"
                          disabled={act.isPending}
                          onClick={() => act.mutate({ action: 'mute', member })}
                        >
                          Mute
                        </button>
                      )}
                    </span>
                  </td>
                </>
              )}
            />
            <Pager
              offset={offset}
              limit={pageSize}
              count={page.items.length}
              total={page.totalCount}
              hasNext={page.hasNext}
              onChange={setOffset}
            />
          </>
        )}
      </QueryView>
    </>
  );
}
