// The metrics of a configuration file's automatic reload, one set per controller subsystem
// (authentication_config_controller, authorization_config_controller, encryption_config_controller): reloads by status, the
// time of the last one, and the hash of the configuration in use. Identities and configurations
// appear only as "sha256:<hex>" hashes, as kube writes them.
// Counterpart of k8s.io/apiserver/pkg/server/options/authenticationconfig/metrics and
// .../authorizationconfig/metrics, .../encryptionconfig/metrics (with pkg/util/configmetrics).
import { createHash } from 'node:crypto';
import { newCounter, newGauge, type StabilityLevel } from './registry.ts';

export interface ConfigReloadMetrics {
  recordFailure(apiServerID: string): void;
  /** A reload applied `data`: counts it and makes `data` the configuration in use. */
  recordSuccess(apiServerID: string, data: string): void;
  /** The configuration in use (at start-up, before any reload). */
  recordLastConfig(apiServerID: string, data: string): void;
}

const hashOf = (data: string): string => (data === '' ? '' : `sha256:${createHash('sha256').update(data).digest('hex')}`);

const bySubsystem = new Map<string, ConfigReloadMetrics>();

interface Help { readonly reloads: string; readonly timestamp: string; readonly info: string }

/** The help texts of the authentication and authorization controllers; `what` names the configuration. */
const helpFor = (what: string): Help => ({
  reloads: `Total number of automatic reloads of ${what} configuration split by status and apiserver identity.`,
  timestamp: `Timestamp of the last automatic reload of ${what} configuration split by status and apiserver identity.`,
  info: `Information about the last applied ${what} configuration with hash as label, split by apiserver identity.`,
});

const SUBSYSTEMS = {
  authentication_config_controller: { stability: 'BETA', help: helpFor('authentication') },
  authorization_config_controller: { stability: 'BETA', help: helpFor('authorization') },
  encryption_config_controller: {
    stability: 'ALPHA',
    help: {
      reloads: 'Total number of reload successes and failures of encryption configuration split by apiserver identity.',
      timestamp: 'Timestamp of the last successful or failed automatic reload of encryption configuration split by apiserver identity.',
      info: 'Information about the last applied encryption configuration with hash as label, split by apiserver identity.',
    },
  },
} as const satisfies Record<string, { stability: StabilityLevel; help: Help }>;

/** The metrics of `subsystem`, made once per process (servers in one process share them, as the registry does). */
export function configReloadMetrics(subsystem: keyof typeof SUBSYSTEMS): ConfigReloadMetrics {
  let m = bySubsystem.get(subsystem);
  if (m === undefined) {
    m = newConfigReloadMetrics(subsystem, SUBSYSTEMS[subsystem].help, SUBSYSTEMS[subsystem].stability);
    bySubsystem.set(subsystem, m);
  }
  return m;
}

function newConfigReloadMetrics(subsystem: string, help: Help, stability: StabilityLevel): ConfigReloadMetrics {
  const prefix = `apiserver_${subsystem}`;
  const reloads = newCounter<'status' | 'apiserver_id_hash'>({
    name: `${prefix}_automatic_reloads_total`, stability, labelNames: ['status', 'apiserver_id_hash'], help: help.reloads,
  });
  const lastTimestamp = newGauge<'status' | 'apiserver_id_hash'>({
    name: `${prefix}_automatic_reload_last_timestamp_seconds`, stability, labelNames: ['status', 'apiserver_id_hash'], help: help.timestamp,
  });
  let current: { apiserver_id_hash: string; hash: string } | undefined;
  newGauge<'apiserver_id_hash' | 'hash'>({
    name: `${prefix}_last_config_info`, stability: 'ALPHA', labelNames: ['apiserver_id_hash', 'hash'], help: help.info,
    collect() {
      // One sample: the configuration in use now (kube's custom collector).
      this.reset();
      if (current !== undefined) this.set(current, 1);
    },
  });
  const record = (status: 'success' | 'failure', apiServerID: string): void => {
    const labels = { status, apiserver_id_hash: hashOf(apiServerID) };
    reloads.inc(labels);
    lastTimestamp.set(labels, Date.now() / 1000);
  };
  const recordLastConfig = (apiServerID: string, data: string): void => {
    current = { apiserver_id_hash: hashOf(apiServerID), hash: hashOf(data) };
  };
  return {
    recordFailure: (id) => { record('failure', id); },
    recordSuccess: (id, data) => { record('success', id); recordLastConfig(id, data); },
    recordLastConfig,
  };
}
