/**
 * @module The DI container. tsyringe needs the Reflect polyfill before it loads; importing the
 * container from here (or from `svc`) guarantees that order.
 */
import "reflect-metadata";
import { container as root, type DependencyContainer } from "tsyringe";

export type { DependencyContainer };

/** A fresh container for one kernel (a child of tsyringe's global root, so tests stay isolated). */
export function createContainer(): DependencyContainer {
  return root.createChildContainer();
}
