/** Admin: the test bench: the emulator's clock, fault rules, test identities, snapshots and the site's state in a file. */
import { PageHeader } from '../../ui/page.js';
import { ClockPanel } from './clock-panel.js';
import { FaultsPanel } from './faults-panel.js';
import { IdentitiesPanel } from './identities-panel.js';
import { SnapshotsPanel } from './snapshots-panel.js';
import { StatePanel } from './state-panel.js';

/** The clock, the faults, the test identities, snapshots and export/import, one panel each. */
export function BenchPage() {
  return (
    <>
      <PageHeader
        title="Test bench"
        description="Move the emulator's time, make calls fail, sign in as any member, and save and restore the whole state. Tests do the same with startEmulator()."
      />
      <ClockPanel />
      <FaultsPanel />
      <IdentitiesPanel />
      <SnapshotsPanel />
      <StatePanel />
    </>
  );
}
