import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addressBucket, clientAddress, parseTrustProxy, trustNothing } from '../../lib/http/client-address.ts';

test('without a trusted proxy the socket address is the client, whatever X-Forwarded-For says', () => {
  assert.equal(clientAddress('203.0.113.9', '1.2.3.4', trustNothing), '203.0.113.9');
  assert.equal(clientAddress('::ffff:203.0.113.9', undefined, trustNothing), '203.0.113.9');
});

test('behind trusted proxies the nearest untrusted X-Forwarded-For hop is the client', () => {
  const trust = parseTrustProxy('loopback, 10.0.0.0/8');
  const cases: Array<[string, string, string | undefined, string]> = [
    ['one proxy', '127.0.0.1', '198.51.100.7', '198.51.100.7'],
    ['spoofed leftmost entry is ignored', '127.0.0.1', '6.6.6.6, 198.51.100.7', '198.51.100.7'],
    ['two trusted hops', '127.0.0.1', '198.51.100.7, 10.1.2.3', '198.51.100.7'],
    ['header split over two lines', '127.0.0.1', undefined, '127.0.0.1'],
    ['ports and brackets are stripped', '::1', '[2001:db8::1]:4711, 10.0.0.2:80', '2001:db8::1'],
    ['every hop trusted: leftmost', '127.0.0.1', '10.0.0.9, 10.0.0.8', '10.0.0.9'],
    ['garbage hop: stop trusting', '127.0.0.1', '198.51.100.7, not-an-ip', '127.0.0.1'],
    ['untrusted socket: header ignored', '198.51.100.1', '1.2.3.4', '198.51.100.1'],
  ];
  for (const [name, socket, xff, expected] of cases) assert.equal(clientAddress(socket, xff, trust), expected, name);
  assert.equal(clientAddress('127.0.0.1', ['6.6.6.6', '198.51.100.7'], trust), '198.51.100.7', 'repeated header lines');
});

test('TRUST_PROXY settings', () => {
  assert.equal(parseTrustProxy('off')('127.0.0.1'), false);
  assert.equal(parseTrustProxy('')('127.0.0.1'), false);
  assert.equal(parseTrustProxy('private')('192.168.1.1'), true);
  assert.equal(parseTrustProxy('private')('8.8.8.8'), false);
  assert.equal(parseTrustProxy('203.0.113.5')('203.0.113.5'), true);
  assert.equal(parseTrustProxy('2001:db8::/32')('2001:db8:1::1'), true);
  assert.throws(() => parseTrustProxy('proxy.example'), /not an address/);
  assert.throws(() => parseTrustProxy('10.0.0.0/33'), /prefix length/);
});

test('IPv6 addresses are counted per /64; IPv4 as is', () => {
  const cases: Array<[string, string]> = [
    ['203.0.113.9', '203.0.113.9'],
    ['::ffff:203.0.113.9', '203.0.113.9'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::ffff', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:aaaa::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['64:ff9b::192.0.2.33', '64:ff9b:0:0::/64'],
  ];
  for (const [address, bucket] of cases) assert.equal(addressBucket(address), bucket, address);
  assert.equal(addressBucket('2001:db8:1:2::1'), addressBucket('2001:db8:1:2:ffff:ffff:ffff:ffff'), 'same /64');
  assert.notEqual(addressBucket('2001:db8:1:2::1'), addressBucket('2001:db8:1:3::1'), 'next /64');
});
