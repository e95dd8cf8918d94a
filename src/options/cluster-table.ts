// The cluster's rows of the options table: how `serve` (and `user`, `webhook`) reach NATS
// JetStream, and the node's own settings. Listed under "Cluster" in `--help`.

import { OptionProblem, type OptionRow, plain, wholeAtLeast } from './row.ts';

/** The cluster's options, in the order `--help` and the docs list them. */
export const CLUSTER_OPTIONS: readonly OptionRow[] = [
  {
    flag: 'cluster',
    arg: 'URLS',
    env: 'CALENDAR_CLUSTER',
    shown: 'unset',
    cluster: true,
    parse: plain,
    help: 'the NATS servers (nats://host:port or tls://host:port, comma-separated)',
    doc: 'run as one node of a replicated calendar on these NATS servers (`nats://host:port` or `tls://host:port`, comma-separated); the state and the users then live in the cluster and `--data` holds only `cluster.json` (which cluster, for the `user` commands); see [A replicated calendar](cluster.md)',
  },
  {
    flag: 'cluster-name',
    arg: 'N',
    env: 'CALENDAR_CLUSTER_NAME',
    shown: 'unset',
    cluster: true,
    parse: plain,
    help: "the calendar's name in the cluster (required with --cluster)",
  },
  {
    flag: 'cluster-creds',
    arg: 'F',
    env: 'CALENDAR_CLUSTER_CREDS',
    shown: 'unset',
    cluster: true,
    parse: plain,
    help: 'NATS credentials file (.creds: user JWT and NKey seed)',
    doc: 'NATS credentials file (`.creds`: a user JWT and its NKey seed, as `nsc generate creds` writes)',
  },
  {
    flag: 'cluster-user',
    arg: 'U',
    env: 'CALENDAR_CLUSTER_USER',
    shown: 'unset',
    cluster: true,
    parse: plain,
    help: 'NATS user (with a password)',
  },
  {
    flag: 'cluster-password',
    arg: 'P',
    env: 'CALENDAR_CLUSTER_PASSWORD',
    shown: 'unset',
    cluster: true,
    parse: plain,
    help: 'its password (prefer the variable: arguments show in ps)',
    doc: "the NATS user's password (prefer the variable: arguments show in `ps`)",
  },
  {
    flag: 'cluster-token',
    arg: 'T',
    env: 'CALENDAR_CLUSTER_TOKEN',
    shown: 'unset',
    cluster: true,
    parse: plain,
    help: 'NATS token (prefer the variable)',
    doc: 'NATS token (one way to log in: a credentials file, a user and password, or a token)',
  },
  {
    flag: 'cluster-tls-ca',
    arg: 'F',
    env: 'CALENDAR_CLUSTER_TLS_CA',
    shown: 'system CAs',
    cluster: true,
    parse: plain,
    help: "PEM CA certificate(s) that signed the servers' certificates",
  },
  {
    flag: 'cluster-tls-cert',
    arg: 'F',
    env: 'CALENDAR_CLUSTER_TLS_CERT',
    shown: 'unset',
    cluster: true,
    parse: plain,
    help: 'PEM client certificate (with --cluster-tls-key)',
  },
  {
    flag: 'cluster-tls-key',
    arg: 'F',
    env: 'CALENDAR_CLUSTER_TLS_KEY',
    shown: 'unset',
    cluster: true,
    parse: plain,
    help: 'PEM client private key (unencrypted)',
  },
  {
    env: 'CALENDAR_CLUSTER_REPLICAS',
    shown: '3',
    cluster: true,
    help: 'replicas of the stream and buckets when a node makes them (1 for one NATS server)',
    parse: (text) => {
      if (!/^[1-5]$/.test(text)) throw new OptionProblem(`expected 1 to 5 (JetStream's limit), got '${text}'`);
      return Number(text);
    },
  },
  {
    flag: 'node-id',
    arg: 'ID',
    env: 'CALENDAR_NODE_ID',
    shown: 'random',
    parse: plain,
    help: "cluster: this node's id in the cluster",
  },
  {
    env: 'CALENDAR_CLUSTER_LEASE_MS',
    shown: '3000',
    help: 'cluster: the writer lease, ms',
    parse: (text) => wholeAtLeast(text, 300),
  },
  {
    env: 'CALENDAR_CLUSTER_SNAPSHOT_EVERY',
    shown: '100000',
    help: 'cluster: the writer snapshots after this many writes',
    parse: (text) => wholeAtLeast(text, 0),
  },
];
