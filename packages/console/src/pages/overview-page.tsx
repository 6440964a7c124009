import { customerClient, dataOf, operatorClient } from '../clients';
import { StatusView } from '../components/status-view';
import type { Session } from '../session';
import { useLoad } from '../use-load';

/** The health of the deployment, and each instance's (operator) or number's (customer). */
export function OverviewPage({ session }: { session: Session }) {
  const health = useLoad(() => customerClient(undefined).health(), []);
  return (
    <>
      <h1>Overview</h1>
      <section aria-labelledby="health-title">
        <h2 id="health-title">Service health</h2>
        <StatusView loaded={health}>
          {(report) => (
            <dl class="checks">
              <dt>Status</dt>
              <dd>{report.status}</dd>
              {Object.entries(report.checks).map(([name, check]) => (
                <div key={name}>
                  <dt>{name}</dt>
                  <dd>
                    {check.status}
                    {check.warnings?.length ? ` — ${check.warnings.join('; ')}` : ''}
                  </dd>
                </div>
              ))}
            </dl>
          )}
        </StatusView>
      </section>
      {session.kind === 'operator' && <LastHour token={session.token} />}
      {session.kind === 'operator' ? (
        <InstancesHealth token={session.token} />
      ) : (
        <NumbersHealth token={session.token} />
      )}
    </>
  );
}

/** The last hour at a glance: messages by outcome, fallbacks and failed webhook deliveries. */
function LastHour({ token }: { token: string }) {
  const stats = useLoad(
    async () => dataOf(await operatorClient(token).getStats({ query: { window: '1h' } }), 200),
    [token],
  );
  return (
    <section aria-labelledby="last-hour-title">
      <h2 id="last-hour-title">The last hour</h2>
      <StatusView loaded={stats}>
        {({ messages, webhooks }) => (
          <dl class="checks">
            {(
              [
                ['Accepted', messages.accepted],
                ['Sent', messages.sent],
                ['Delivered', messages.delivered],
                ['Failed', messages.failed],
                ['Fallbacks', messages.fallbacks],
                ['Webhook failures', webhooks.failed],
              ] as const
            ).map(([name, value]) => (
              <div key={name}>
                <dt>{name}</dt>
                <dd>{value}</dd>
              </div>
            ))}
          </dl>
        )}
      </StatusView>
    </section>
  );
}

/** Every instance with its health and warnings. */
function InstancesHealth({ token }: { token: string }) {
  const instances = useLoad(
    async () => dataOf(await operatorClient(token).listInstances(), 200),
    [token],
  );
  return (
    <section aria-labelledby="instances-health-title">
      <h2 id="instances-health-title">Instances</h2>
      <StatusView loaded={instances}>
        {(list) =>
          list.length === 0 ? (
            <p>No instance yet.</p>
          ) : (
            <table>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Provider</th>
                  <th scope="col">Health</th>
                  <th scope="col">Warnings</th>
                </tr>
              </thead>
              <tbody>
                {list.map((instance) => (
                  <tr key={instance.id}>
                    <td>{instance.name}</td>
                    <td>{instance.provider}</td>
                    <td>{instance.enabled ? instance.healthStatus : 'disabled'}</td>
                    <td>{instance.healthWarnings.join('; ')}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </StatusView>
    </section>
  );
}

/** The customer's sender numbers with their health. */
function NumbersHealth({ token }: { token: string }) {
  const numbers = useLoad(() => customerClient(token).numbers.list(), [token]);
  return (
    <section aria-labelledby="numbers-health-title">
      <h2 id="numbers-health-title">Your numbers</h2>
      <StatusView loaded={numbers}>
        {(list) => (
          <table>
            <thead>
              <tr>
                <th scope="col">Number</th>
                <th scope="col">Instance</th>
                <th scope="col">Health</th>
                <th scope="col">Default</th>
              </tr>
            </thead>
            <tbody>
              {list.map((number) => (
                <tr key={number.phoneNumber}>
                  <td>{number.phoneNumber}</td>
                  <td>{number.instanceName}</td>
                  <td>{number.healthStatus}</td>
                  <td>{number.isDefault ? 'yes' : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </StatusView>
    </section>
  );
}
