/** Admin: the test bench: the emulator's clock, fault rules and test identities. */
import { PageHeader } from '../../ui/page.js';
import { ClockPanel } from './clock-panel.js';
import { FaultsPanel } from './faults-panel.js';
import { IdentitiesPanel } from './identities-panel.js';

/** The clock, the faults and the test identities, one panel each. */
export function BenchPage() {
  return (
    <>
      <PageHeader
        title="Test bench"
        description="Move the emulator's time, make calls fail, and sign in as any member. Tests do the same with startEmulator()."
      />
      <ClockPanel />
      <FaultsPanel />
      <IdentitiesPanel />
    </>
  );
}
