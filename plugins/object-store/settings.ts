/**
 * @module The settings svc:object-store declares; the kernel merges them into its table when the plugin is loaded.
 */
import { setting, settingTypes } from "svc/plugin";

const { choice, integer, optionalText } = settingTypes;

export const objectStoreSettings = {
  objectStoreBackend: setting(choice(["memory", "redis"]), {
    env: "OBJECT_STORE_BACKEND",
    default: "memory",
    help: "Store behind `@obj_` references: `memory` (one process) or `redis`.",
  }),
  objectStoreRedisUrl: setting(optionalText(), {
    env: "OBJECT_STORE_REDIS_URL",
    default: undefined,
    help: "Redis URL of the `redis` store: `redis://host:6379`, `redis://user:password@host:6379`, `rediss://…` (TLS), or a cluster as `redis://host1:6379,host2:6379,host3:6379`.",
  }),
  objectStoreTtl: setting(integer(0), { env: "OBJECT_STORE_TTL", default: 600, help: "Seconds a stored object lives; 0 keeps it." }),
};
