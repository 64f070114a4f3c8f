import { describe, expect, it } from 'vitest';
import { addressProblem, resolveAllowed, urlProblem, UrlRefusedError, type Lookup } from '../../../shared/webhooks/url-guard.js';

const resolvesTo = (...addresses: string[]): Lookup => async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('addressProblem', () => {
  it.each([
    '10.1.2.3', '172.16.0.1', '172.31.255.255', '192.168.1.1', '100.64.0.1', '0.0.0.0', '192.0.2.10', '198.18.0.1', '224.0.0.1', '255.255.255.255',
    'fc00::1', 'fd00:ec2::254', '::', '::ffff:10.0.0.1', '64:ff9b::a00:1', '2001:db8::1', '2002:a00:1::', 'ff02::1',
    // IPv4-compatible, IPv4-translated and site-local forms that embed or reach private networks
    '::127.0.0.1', '::a9fe:a9fe', '::ffff:0:a9fe:a9fe', '::ffff:0:127.0.0.1', 'fec0::1',
  ])('refuses the private or reserved address %s', (address) => {
    expect(addressProblem(address, 'deployed')).toMatch(/private or reserved/);
  });

  it.each(['169.254.169.254', '169.254.0.1', 'fe80::1', '::ffff:169.254.169.254'])('refuses the link-local (metadata) address %s', (address) => {
    expect(addressProblem(address, 'deployed')).toMatch(/link-local or metadata/);
  });

  it('refuses loopback deployed and allows it locally', () => {
    expect(addressProblem('127.0.0.1', 'deployed')).toMatch(/loopback/);
    expect(addressProblem('127.8.9.10', 'deployed')).toMatch(/loopback/);
    expect(addressProblem('::1', 'deployed')).toMatch(/loopback/);
    expect(addressProblem('127.0.0.1', 'local')).toBeUndefined();
  });

  it('keeps refusing private addresses locally', () => {
    expect(addressProblem('192.168.1.1', 'local')).toMatch(/private/);
    expect(addressProblem('169.254.169.254', 'local')).toMatch(/metadata/);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111'])('allows the public address %s', (address) => {
    expect(addressProblem(address, 'deployed')).toBeUndefined();
  });
});

describe('urlProblem', () => {
  it('takes https with a public host deployed', () => {
    expect(urlProblem('https://hooks.example.com/boxoffice?x=1', 'deployed')).toBeUndefined();
  });

  it.each([
    ['http://hooks.example.com/x', /https/],
    ['http://127.0.0.1:8080/x', /https/],
    ['https://localhost/x', /localhost/],
    ['https://LOCALHOST./x', /localhost/],
    ['https://app.localhost/x', /localhost/],
    ['https://127.0.0.1/x', /loopback/],
    ['https://0x7f.1/x', /loopback/],
    ['https://2130706433/x', /loopback/],
    ['https://[::1]/x', /loopback/],
    ['https://10.0.0.1/x', /private/],
    ['https://169.254.169.254/latest', /metadata/],
    ['https://metadata.google.internal/', /metadata/],
    ['https://u:p@hooks.example.com/', /credentials/],
    ['ftp://hooks.example.com/', /https/],
    ['hooks.example.com', /absolute URL/],
  ])('refuses %s deployed', (url, message) => {
    expect(urlProblem(url, 'deployed')).toMatch(message);
  });

  it('takes http://127.0.0.1 and http://localhost only locally', () => {
    expect(urlProblem('http://127.0.0.1:4000/hooks', 'local')).toBeUndefined();
    expect(urlProblem('http://localhost:4000/hooks', 'local')).toBeUndefined();
    expect(urlProblem('http://hooks.example.com/', 'local')).toMatch(/https/);
    expect(urlProblem('http://192.168.1.1/', 'local')).toMatch(/https/);
    expect(urlProblem('https://192.168.1.1/', 'local')).toMatch(/private/);
  });
});

describe('resolveAllowed', () => {
  it('answers the addresses of a host that resolves to public addresses only', async () => {
    await expect(resolveAllowed('https://hooks.example.com/x', 'deployed', resolvesTo('93.184.216.34'))).resolves.toEqual([{ address: '93.184.216.34', family: 4 }]);
  });

  it('refuses a name that resolves to a private address (DNS pointing inside)', async () => {
    await expect(resolveAllowed('https://inside.example.com/x', 'deployed', resolvesTo('10.0.0.5'))).rejects.toThrow(UrlRefusedError);
  });

  it('refuses a name with one public and one private address', async () => {
    await expect(resolveAllowed('https://mixed.example.com/x', 'deployed', resolvesTo('93.184.216.34', '169.254.169.254'))).rejects.toThrow(/metadata/);
  });

  it('refuses a name resolving to loopback deployed, and allows it locally', async () => {
    await expect(resolveAllowed('https://sneaky.example.com/x', 'deployed', resolvesTo('127.0.0.1'))).rejects.toThrow(/loopback/);
    await expect(resolveAllowed('https://sneaky.example.com/x', 'local', resolvesTo('127.0.0.1'))).resolves.toHaveLength(1);
  });

  it('answers undefined for a name that does not resolve, without asking DNS for IP literals', async () => {
    const failing: Lookup = async () => { throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }); };
    await expect(resolveAllowed('https://nowhere.example.com/x', 'deployed', failing)).resolves.toBeUndefined();
    await expect(resolveAllowed('https://93.184.216.34/x', 'deployed', failing)).resolves.toEqual([{ address: '93.184.216.34', family: 4 }]);
  });
});
