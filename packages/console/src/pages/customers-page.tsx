import { useState } from 'preact/hooks';
import { dataOf, operatorClient } from '../clients';
import { StatusView } from '../components/status-view';
import { hrefOf } from '../route';
import { messageOf, useLoad } from '../use-load';
import { CustomerDetail } from './customer-detail';

/** The customers: list, create, and the selected one's keys, numbers and opt-outs. */
export function CustomersPage({
  token,
  selected,
}: {
  token: string;
  selected?: string | undefined;
}) {
  const client = operatorClient(token);
  const customers = useLoad(async () => dataOf(await client.listCustomers(), 200), [token]);
  const [name, setName] = useState('');
  const [error, setError] = useState<string>();
  const create = async (event: Event) => {
    event.preventDefault();
    setError(undefined);
    try {
      const customer = dataOf(await client.createCustomer({ body: { name } }), 201);
      setName('');
      customers.reload();
      window.location.hash = hrefOf('customers', customer.id);
    } catch (failure) {
      setError(messageOf(failure));
    }
  };
  return (
    <>
      <h1>Customers</h1>
      <StatusView loaded={customers}>
        {(list) => (
          <ul class="list">
            {list.map((customer) => (
              <li key={customer.id}>
                <a
                  href={hrefOf('customers', customer.id)}
                  aria-current={customer.id === selected ? 'true' : undefined}
                >
                  {customer.name}
                </a>
              </li>
            ))}
          </ul>
        )}
      </StatusView>
      <form onSubmit={create} aria-labelledby="create-customer-title">
        <h2 id="create-customer-title">Create a customer</h2>
        <div class="field">
          <label for="customer-name">Name</label>
          <input
            id="customer-name"
            required
            value={name}
            onInput={(event) => setName(event.currentTarget.value)}
          />
        </div>
        <button type="submit">Create customer</button>
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
      </form>
      {selected && <CustomerDetail key={selected} token={token} customerId={selected} />}
    </>
  );
}
