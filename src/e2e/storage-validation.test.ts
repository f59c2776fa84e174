// Storage validation against kube-apiserver v1.36 (issue 12): the storage.k8s.io/v1 types,
// PersistentVolume and PersistentVolumeClaim, PriorityClass and RuntimeClass, one case per rule
// of kube's validation (testing/storage-validation-corpus.ts, testing/volume-validation-corpus.ts).
// kube's answers are recorded in testing/fixtures/storage-validation-kube.json and compared
// everywhere; the live oracle is asked as well where it is built.
import { describeValidationCorpus } from './testing/validation-differential.ts';
import { ATTRIBUTES_CLASS, CAPACITY, CLASSES, CSI_DRIVER, CSI_NODE, STORAGE_CLASS, VOLUME_ATTACHMENT } from './testing/storage-validation-corpus.ts';
import { VOLUME_CASES, volumeSetup } from './testing/volume-validation-corpus.ts';

describeValidationCorpus({
  title: 'storage validation',
  cases: [...STORAGE_CLASS, ...CSI_DRIVER, ...CSI_NODE, ...VOLUME_ATTACHMENT, ...CAPACITY, ...ATTRIBUTES_CLASS, ...CLASSES, ...VOLUME_CASES],
  setup: volumeSetup,
  fixture: new URL('./testing/fixtures/storage-validation-kube.json', import.meta.url),
});
