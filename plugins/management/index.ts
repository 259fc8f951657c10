/**
 * @module svc:management: deploy, undeploy and status over HTTP, on the kernel's deploy service.
 */
import { DEPLOYER, REGISTRY, definePlugin, type KernelPlugin } from "svc/plugin";
import { registerRoutes } from "./routes.js";

export default function managementPlugin(): KernelPlugin {
  return definePlugin({
    name: "svc:management",
    setup(kernel) {
      registerRoutes(kernel, kernel.resolve(DEPLOYER), kernel.resolve(REGISTRY));
    },
  });
}
