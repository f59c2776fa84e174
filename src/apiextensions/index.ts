// The apiextensions server's public surface. Counterpart of
// k8s.io/apiextensions-apiserver/pkg/apiserver.
export { apiextensionsGroup } from './install.ts';
export { CustomResourceServer, type CustomResourceServerOptions, type ServedStore } from './server/custom-resource-server.ts';
export { CRDController, type CRDControllerOptions } from './controller/crd-controller.ts';
export { validateCRD, validateCRDUpdate } from './crd/validation.ts';
export { validateCustomResource } from './schema/validate.ts';
export { applyDefaults } from './schema/defaulting.ts';
export type { CustomResourceDefinition, JSONSchemaProps } from './v1/types.ts';
