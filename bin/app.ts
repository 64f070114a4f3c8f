import { App } from 'aws-cdk-lib';
import { buildBoxoffice } from '../lib/boxoffice-app.js';

// `cdk deploy -c stage=prod -c alarmEmail=ops@example.com [-c canary=false] [-c tracer=true]` (the functions read
// `tracer` themselves: lib/boxoffice-function.ts); the account and region come from the
// credentials in use (CDK_DEFAULT_*), so the same app deploys anywhere.
const app = new App();
const stage = String(app.node.tryGetContext('stage') ?? 'dev');
const alarmEmail = app.node.tryGetContext('alarmEmail') as string | undefined;
// `-c canary=true|false`; without it, only stage prod gets the external /health canary.
const canary = app.node.tryGetContext('canary') as string | boolean | undefined;
const account = process.env.CDK_DEFAULT_ACCOUNT;
const region = process.env.CDK_DEFAULT_REGION;

buildBoxoffice(app, {
  stage,
  ...(alarmEmail ? { alarmEmail } : {}),
  ...(canary === undefined ? {} : { healthCanary: canary === true || canary === 'true' }),
  ...(account && region ? { env: { account, region } } : {}),
});
app.synth();
