/** Test bench: the emulator's clock, moved forward by an hour, four hours (an access token's life) or a day. */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { advanceClock, readClock, resetClock } from '../../emulator/bench-control.js';
import { controlKey, useControlQuery } from '../../emulator/control-query.js';
import { FormStatus } from '../../ui/form-status.js';
import { formatDateTime } from '../../ui/format.js';
import { useAdminClient } from '../admin-client.js';

const HOUR = 3600;

/** The moves the panel offers. */
const moves = [
  { label: '+1 hour', seconds: HOUR },
  { label: '+4 hours', seconds: 4 * HOUR },
  { label: '+1 day', seconds: 24 * HOUR },
];

/** An offset in words: `real time`, `4 h ahead`, `1 d 2 h ahead`, `30 min behind`. */
function describeOffset(offsetSeconds: number): string {
  if (offsetSeconds == 0) return 'real time';
  const total = Math.round(Math.abs(offsetSeconds) / 60);
  const days = Math.floor(total / 1440);
  const hours = Math.floor((total % 1440) / 60);
  const minutes = total % 60;
  const parts = [days && `${days} d`, hours && `${hours} h`, minutes && `${minutes} min`].filter(Boolean);
  return `${parts.join(' ') || 'under a minute'} ${offsetSeconds > 0 ? 'ahead' : 'behind'}`;
}

/** The clock's time, its offset, and buttons that move it. */
export function ClockPanel() {
  const client = useAdminClient();
  const queryClient = useQueryClient();
  const clock = useControlQuery('clock', client, (admin, signal) => readClock(admin, signal), 5_000);
  const move = useMutation({
    mutationFn: (seconds: number | 'reset') =>
      seconds == 'reset' ? resetClock(client) : advanceClock(client, seconds),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [...controlKey, 'clock'] }),
  });
  return (
    <section className="card stack" aria-label="Clock">
      <h2>Clock</h2>
      <p className="muted small">
        Every expiry follows the emulator's time: access tokens (4 hours), codes, upload and download URLs, sessions.
      </p>
      <p data-testid="clock-now">
        {clock.data ? (
          <>
            <strong>{formatDateTime(clock.data.now)}</strong>{' '}
            <span className="badge" data-testid="clock-offset">
              {describeOffset(clock.data.offsetSeconds)}
            </span>
          </>
        ) : (
          'Reading the clock…'
        )}
      </p>
      <div className="row">
        {moves.map(({ label, seconds }) => (
          <button
            key={label}
            type="button"
            className="secondary"
            disabled={move.isPending}
            onClick={() => move.mutate(seconds)}
          >
            {label}
          </button>
        ))}
        <button type="button" className="secondary" disabled={move.isPending} onClick={() => move.mutate('reset')}>
          Back to real time
        </button>
      </div>
      <FormStatus mutation={move} errorTitle="Could not move the clock" />
    </section>
  );
}
