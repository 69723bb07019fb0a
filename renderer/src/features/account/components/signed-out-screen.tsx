import { LogIn, MailCheck } from 'lucide-react';
import { useState } from 'react';
import { Form } from 'react-aria-components';
import { Button } from '../../../ui/button';
import { TextField } from '../../../ui/field';
import { useRequestSignIn } from '../api/request-sign-in';

/** The session ended while the dashboard was open: ask for a new one-time link. */
export function SignedOutScreen() {
  const [email, setEmail] = useState('');
  const request = useRequestSignIn();
  return (
    <main className="gate">
      <div className="gate-card">
        <div className="empty-icon" aria-hidden>
          {request.isSuccess ? <MailCheck size={20} /> : <LogIn size={20} />}
        </div>
        <h1 className="gate-title">
          {request.isSuccess ? 'Check for your sign-in link' : 'Sign in to Folio'}
        </h1>
        {request.isSuccess ? (
          <p className="muted">
            A one-time link for <strong>{request.data.email}</strong> was minted. Without a mail server it is
            printed on the Folio console and listed for the owner.
          </p>
        ) : (
          <Form
            className="stack gate-form"
            onSubmit={(event) => {
              event.preventDefault();
              request.mutate(email);
            }}
            validationErrors={request.error ? { email: request.error.message } : undefined}
          >
            <p className="muted">
              Your session has ended. The owner signs in with the link the app opens or prints on start.
            </p>
            <TextField
              label="Email"
              name="email"
              type="email"
              value={email}
              onChange={setEmail}
              isRequired
              autoFocus
            />
            <Button variant="primary" type="submit" isDisabled={request.isPending}>
              Send me a sign-in link
            </Button>
          </Form>
        )}
      </div>
    </main>
  );
}
