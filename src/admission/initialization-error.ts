// A plugin that was built but whose configuration does not hold together: kube-apiserver's
// InitializationValidator failing, which start-up reports as "failed to initialize admission
// plugin" rather than "couldn't init admission plugin" (a configuration it could not decode).
// Counterpart of k8s.io/apiserver/pkg/admission (plugins.go: InitPlugin, ValidateInitialization).
export class AdmissionInitializationError extends Error {
  override readonly name = 'AdmissionInitializationError';
}
