import type { Command } from 'commander';
import { examples, type App } from '../../command.js';
import { register as login } from './login.js';
import { register as logout } from './logout.js';
import { register as status } from './status.js';
import { register as token } from './token.js';

export function register(auth: Command, app: App): void {
  auth
    .addHelpText('after', examples('wsctl auth login --base-url https://api.example.com', 'wsctl auth status', 'export WSCTL_API_KEY="$(wsctl auth token)"'));
  login(auth, app);
  status(auth, app);
  token(auth, app);
  logout(auth, app);
}
