/** Test bench: approved members, each with a "Sign in as" button that signs the site view in as them. */
import { useMutation, useQuery } from '@tanstack/react-query';
import type { Member } from 'sitekit-sdk';
import { queryOptions } from 'sitekit-sdk/react';
import { useConsole } from '../../app/console-context.js';
import { useRouter } from '../../app/router.js';
import { signInAs } from '../../emulator/bench-control.js';
import { DataTable } from '../../ui/data-table.js';
import { FormStatus } from '../../ui/form-status.js';
import { QueryView } from '../../ui/query-view.js';
import { useAdminClient } from '../admin-client.js';

/** How many members the panel lists. */
const shown = 20;

/** The members who can sign in, and the button that does it without a password. */
export function IdentitiesPanel() {
  const client = useAdminClient();
  const { clients } = useConsole();
  const { navigate } = useRouter();
  const members = useQuery(
    queryOptions(
      client.members
        .queryMembers({ fieldsets: ['FULL'] })
        .eq('status', 'APPROVED')
        .limit(shown),
    ),
  );
  const signIn = useMutation({
    mutationFn: (member: Member) => signInAs(client, member._id ?? ''),
    onSuccess: (tokens) => {
      // The site view's client takes the tokens (its session badge follows); the emulator's
      // cookie, set by the same call, keeps it signed in across a reload.
      clients.site.auth.setTokens(tokens);
      navigate('/');
    },
  });
  return (
    <section className="card stack" aria-label="Test identities">
      <h2>Test identities</h2>
      <p className="muted small">
        Sign the site view in as a member, without a password. Seed files declare more (see the README, "members").
      </p>
      <QueryView
        query={members}
        loading="Reading the members…"
        errorTitle="Could not read the members"
        isEmpty={(page) => page.items.length === 0}
        emptyTitle="No approved member"
      >
        {(page) => (
          <DataTable
            testId="identities-table"
            headings={['Member', 'Email', '']}
            rows={page.items}
            rowKey={(member) => member._id ?? ''}
            cells={(member) => (
              <>
                <td>{member.profile?.nickname ?? '—'}</td>
                <td className="mono small">{member.loginEmail ?? '—'}</td>
                <td>
                  <button
                    type="button"
                    className="secondary small"
                    disabled={signIn.isPending}
                    onClick={() => signIn.mutate(member)}
                  >
                    Sign in as
                  </button>
                </td>
              </>
            )}
          />
        )}
      </QueryView>
      <FormStatus mutation={signIn} errorTitle="Could not sign in as the member" />
    </section>
  );
}
