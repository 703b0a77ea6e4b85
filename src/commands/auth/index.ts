import { defineNoun } from '../../verbs/declare.js';
import { login } from './login.js';
import { logout } from './logout.js';
import { status } from './status.js';
import { switchProfile } from './switch.js';
import { token } from './token.js';

export const auth = defineNoun({
  name: 'auth',
  summary: 'Log in, check and forget API keys',
  examples: ['wsctl auth login --base-url https://api.example.com', 'wsctl auth status', 'export WSCTL_API_KEY="$(wsctl auth token)"'],
  verbs: [login, status, switchProfile, token, logout],
});
