import { describe, expect, it } from 'vitest';
import { isRetryLater, nodeUrl, redirectionOf, slotOwners } from '../../src/platform/redis/cluster-slot-map.js';
import { ReplyError } from '../../src/platform/redis/resp.js';

describe('the slot map of a Redis Cluster', () => {
  it('gives each slot the master of its range, and a node that does not know its host the one that answered', () => {
    const owners = slotOwners(
      [
        [0, 5460, ['10.0.0.1', 7000, 'id-a', []], ['10.0.0.4', 7003, 'id-d', []]],
        [5461, 10922, ['', 7001, 'id-b', []]],
        [10923, 16000, ['?', 7002, 'id-c', []]],
      ],
      '10.0.0.9:7001',
    );
    expect([owners[0], owners[5460], owners[5461], owners[10922], owners[10923], owners[16000], owners[16001]]).toEqual([
      '10.0.0.1:7000',
      '10.0.0.1:7000',
      '10.0.0.9:7001',
      '10.0.0.9:7001',
      '10.0.0.9:7002',
      '10.0.0.9:7002',
      '',
    ]);
    expect(owners).toHaveLength(16_384);
  });

  it('reads MOVED and ASK, the host of the node that answered standing in for an unknown one', () => {
    expect(redirectionOf(new ReplyError('MOVED 3999 127.0.0.1:6381'), '127.0.0.1:6380')).toEqual({ ask: false, slot: 3999, address: '127.0.0.1:6381' });
    expect(redirectionOf(new ReplyError('ASK 12 :6382'), '10.1.2.3:6380')).toEqual({ ask: true, slot: 12, address: '10.1.2.3:6382' });
    expect(redirectionOf(new ReplyError('MOVED 7 ::1:6381'), '[::1]:6380')).toEqual({ ask: false, slot: 7, address: '::1:6381' });
    expect(redirectionOf(new ReplyError('WRONGTYPE Operation against a key holding the wrong kind of value'), 'h:1')).toBeUndefined();
    expect(redirectionOf(new Error('MOVED 1 h:2'), 'h:1')).toBeUndefined();
  });

  it('asks again later on TRYAGAIN and CLUSTERDOWN only', () => {
    expect(isRetryLater(new ReplyError('TRYAGAIN Multiple keys request during rehashing of slot'))).toBe(true);
    expect(isRetryLater(new ReplyError('CLUSTERDOWN The cluster is down'))).toBe(true);
    expect(isRetryLater(new ReplyError('ERR unknown command'))).toBe(false);
  });

  it('makes a URL of an address, an IPv6 host in brackets', () => {
    expect(nodeUrl('127.0.0.1:7000')).toBe('redis://127.0.0.1:7000');
    expect(nodeUrl('::1:7000')).toBe('redis://[::1]:7000');
    expect(nodeUrl('[::1]:7000')).toBe('redis://[::1]:7000');
  });
});
