import type { Command } from 'commander';
import { examples, type App } from '../../command.js';
import { register as login } from './login.js';
import { register as logout } from './logout.js';
import { register as status } from './status.js';

export function register(auth: Command, app: App): void {
  auth
    .addHelpText('after', examples('wsctl auth login --base-url https://api.example.com', 'wsctl auth status'));
  login(auth, app);
  status(auth, app);
  logout(auth, app);
}
