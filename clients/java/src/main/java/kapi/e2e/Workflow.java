package kapi.e2e;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ConfigMapList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceBuilder;
import io.fabric8.kubernetes.api.model.ListOptionsBuilder;
import io.fabric8.kubernetes.api.model.ManagedFieldsEntry;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusDetails;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.JSONSchemaPropsBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * A short fabric8 kubernetes-client workflow against the cluster of $KUBECONFIG. Each step prints
 * one line "STEP name: what it saw", with nothing server-specific in it (no uids, resourceVersions
 * or times), so that the lines of two servers can be compared; a failed check prints "FAIL name:
 * why" and the program exits 1 after the remaining steps ran.
 */
public final class Workflow {
  /** Guards against a hang, not a timing assertion. */
  private static final long WAIT_S = 60;
  private static final String NS = "java-workflow";
  private static final String GROUP = "java.example.com";

  private final KubernetesClient client;
  private final List<String> failures = new ArrayList<>();

  private Workflow(KubernetesClient client) {
    this.client = client;
  }

  interface Step {
    String run() throws Exception;
  }

  interface Call {
    Object run() throws Exception;
  }

  private void step(String name, Step s) {
    try {
      System.out.println("STEP " + name + ": " + s.run());
    } catch (Throwable e) {
      failures.add(name);
      System.out.println("FAIL " + name + ": " + e);
    }
    System.out.flush();
  }

  static void check(boolean ok, String what) {
    if (!ok) throw new AssertionError(what);
  }

  /** The parts of a Status error that clients read: the HTTP code, reason and message. */
  static String status(KubernetesClientException e) {
    Status s = e.getStatus();
    String reason = s == null ? "" : s.getReason();
    String message = s != null ? s.getMessage()
        : e.getMessage() + (e.getCause() == null ? "" : " (" + e.getCause().getMessage() + ")");
    return "code=" + e.getCode() + " reason=" + reason + " message=" + message;
  }

  /** Runs `call`, which must fail with a KubernetesClientException, and describes the failure. */
  static String failure(Call call) throws Exception {
    try {
      call.run();
    } catch (KubernetesClientException e) {
      return status(e);
    }
    throw new AssertionError("the call succeeded");
  }

  static ConfigMap cm(String name, String label, Map<String, String> data) {
    return new ConfigMapBuilder().withNewMetadata().withName(name).addToLabels("wf", label).endMetadata()
        .withData(new TreeMap<>(data)).build();
  }

  static String sorted(Map<String, ?> m) {
    return new TreeMap<>(m == null ? Map.of() : m).toString();
  }

  /** A custom resource's spec with sorted keys: kube-apiserver sorts the keys of what it returns, kapi keeps their order. */
  @SuppressWarnings("unchecked")
  static String spec(GenericKubernetesResource r) {
    return sorted((Map<String, ?>) r.getAdditionalProperties().get("spec"));
  }

  private void run() {
    step("namespace", () -> {
      client.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(NS).endMetadata().build()).create();
      // kube-apiserver alone (no controller manager) makes no default ServiceAccount, and the
      // ServiceAccount admission plugin wants it for pods; apply is the same on both servers.
      client.serviceAccounts().inNamespace(NS).resource(new ServiceAccountBuilder().withNewMetadata().withName("default")
          .endMetadata().build()).fieldManager("java-workflow").forceConflicts().serverSideApply();
      return "created " + client.namespaces().withName(NS).get().getMetadata().getName();
    });
    crud();
    patches();
    watches();
    customResources();
    pagination();
    errors();
    podLog();
    step("delete namespace", () -> {
      List<StatusDetails> d = client.namespaces().withName(NS).delete();
      return "deleted " + d.size();
    });
  }

  private void crud() {
    var cms = client.configMaps().inNamespace(NS);
    step("create", () -> {
      ConfigMap c = cms.resource(cm("cm-a", "crud", Map.of("k", "v1"))).create();
      check(c.getMetadata().getUid() != null && c.getMetadata().getResourceVersion() != null, "no uid or resourceVersion");
      return c.getMetadata().getName() + " data=" + sorted(c.getData());
    });
    step("get", () -> "data=" + sorted(cms.withName("cm-a").get().getData()));
    step("list", () -> {
      ConfigMapList l = cms.withLabel("wf", "crud").list();
      return l.getItems().stream().map(c -> c.getMetadata().getName()).collect(Collectors.toList()).toString();
    });
    step("update", () -> {
      ConfigMap c = cms.withName("cm-a").get();
      String before = c.getMetadata().getResourceVersion();
      c.getData().put("k", "v2");
      ConfigMap u = cms.resource(c).update();
      check(!u.getMetadata().getResourceVersion().equals(before), "resourceVersion unchanged");
      return "data=" + sorted(u.getData());
    });
    step("edit", () -> sorted(cms.withName("cm-a").edit(c -> new ConfigMapBuilder(c).addToData("edited", "yes").build()).getData()));
  }

  private void patches() {
    var cms = client.configMaps().inNamespace(NS);
    step("patch json merge", () -> sorted(cms.withName("cm-a")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"data\":{\"merge\":\"1\",\"edited\":null}}").getData()));
    step("patch json", () -> sorted(cms.withName("cm-a")
        .patch(PatchContext.of(PatchType.JSON), "[{\"op\":\"replace\",\"path\":\"/data/k\",\"value\":\"v3\"}]").getData()));
    var deployments = client.apps().deployments().inNamespace(NS);
    step("patch strategic", () -> {
      Deployment d = new DeploymentBuilder().withNewMetadata().withName("web").endMetadata().withNewSpec().withReplicas(1)
          .withNewSelector().addToMatchLabels("app", "web").endSelector()
          .withNewTemplate().withNewMetadata().addToLabels("app", "web").endMetadata().withNewSpec()
          .addNewContainer().withName("app").withImage("app:1").endContainer().endSpec().endTemplate().endSpec().build();
      deployments.resource(d).create();
      // Containers merge by name under a strategic merge patch; a JSON merge patch would replace the list.
      Deployment p = deployments.withName("web").patch(PatchContext.of(PatchType.STRATEGIC_MERGE),
          "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"sidecar\",\"image\":\"sidecar:1\"}]}}}}");
      return p.getSpec().getTemplate().getSpec().getContainers().stream().map(c -> c.getName() + "=" + c.getImage())
          .sorted().collect(Collectors.toList()).toString();
    });
    step("server-side apply", () -> {
      ConfigMap a = cms.resource(cm("cm-ssa", "ssa", Map.of("a", "1"))).fieldManager("java-workflow").forceConflicts().serverSideApply();
      ConfigMap b = cms.resource(cm("cm-ssa", "ssa", Map.of("a", "2", "b", "1"))).fieldManager("java-workflow").serverSideApply();
      List<String> managers = new ArrayList<>();
      for (ManagedFieldsEntry m : b.getMetadata().getManagedFields()) managers.add(m.getManager() + "/" + m.getOperation());
      check(a.getData().equals(Map.of("a", "1")), "first apply: " + a.getData());
      return "data=" + sorted(b.getData()) + " managers=" + managers;
    });
    step("server-side apply conflict", () -> failure(() -> cms.resource(cm("cm-ssa", "ssa", Map.of("a", "3")))
        .fieldManager("other-manager").serverSideApply()));
  }

  private void watches() {
    var cms = client.configMaps().inNamespace(NS);
    step("watch", () -> {
      BlockingQueue<String> events = new LinkedBlockingQueue<>();
      Watch w = cms.withLabel("wf", "watch").watch(new Watcher<ConfigMap>() {
        @Override public void eventReceived(Action action, ConfigMap c) {
          events.add(action + " " + c.getMetadata().getName());
        }
        @Override public void onClose(WatcherException e) {
          events.add("CLOSED " + e);
        }
      });
      try {
        cms.resource(cm("cm-w", "watch", Map.of("x", "1"))).create();
        cms.withName("cm-w").patch(PatchContext.of(PatchType.JSON_MERGE), "{\"data\":{\"x\":\"2\"}}");
        cms.withName("cm-w").delete();
        List<String> seen = new ArrayList<>();
        while (seen.size() < 3) {
          String e = events.poll(WAIT_S, TimeUnit.SECONDS);
          check(e != null, "watch events so far: " + seen);
          seen.add(e);
        }
        return seen.toString();
      } finally {
        w.close();
      }
    });
    step("informer", () -> {
      cms.resource(cm("cm-i0", "informer", Map.of())).create();
      BlockingQueue<String> events = new LinkedBlockingQueue<>();
      SharedIndexInformer<ConfigMap> inf = cms.withLabel("wf", "informer").inform(new ResourceEventHandler<ConfigMap>() {
        @Override public void onAdd(ConfigMap c) {
          events.add("add " + c.getMetadata().getName());
        }
        @Override public void onUpdate(ConfigMap old, ConfigMap c) {
          events.add("update " + c.getMetadata().getName() + " " + sorted(c.getData()));
        }
        @Override public void onDelete(ConfigMap c, boolean unknownFinalState) {
          events.add("delete " + c.getMetadata().getName());
        }
      }, 0);
      try {
        check(inf.hasSynced(), "not synced after inform()");
        cms.resource(cm("cm-i1", "informer", Map.of())).create();
        cms.withName("cm-i1").patch(PatchContext.of(PatchType.JSON_MERGE), "{\"data\":{\"y\":\"1\"}}");
        cms.withName("cm-i0").delete();
        List<String> seen = new ArrayList<>();
        while (seen.size() < 4) {
          String e = events.poll(WAIT_S, TimeUnit.SECONDS);
          check(e != null, "informer events so far: " + seen);
          seen.add(e);
        }
        List<String> cached = inf.getStore().list().stream().map(c -> c.getMetadata().getName()).sorted().collect(Collectors.toList());
        return seen + " cache=" + cached;
      } finally {
        inf.close();
      }
    });
    step("streaming list", () -> {
      // A watch with sendInitialEvents=true: the current objects, then the initial-events-end bookmark.
      List<String> names = new ArrayList<>();
      String rv = cms.withLabel("wf", "informer").streamingList(c -> names.add(c.getMetadata().getName())).get(WAIT_S, TimeUnit.SECONDS);
      check(rv != null && !rv.isEmpty(), "no resourceVersion from the initial-events-end bookmark");
      return names.toString();
    });
  }

  private void customResources() {
    String crdName = "widgets." + GROUP;
    var crds = client.apiextensions().v1().customResourceDefinitions();
    step("crd", () -> {
      CustomResourceDefinition crd = new CustomResourceDefinitionBuilder().withNewMetadata().withName(crdName).endMetadata()
          .withNewSpec().withGroup(GROUP).withScope("Namespaced")
          .withNewNames().withPlural("widgets").withSingular("widget").withKind("Widget").endNames()
          .addNewVersion().withName("v1").withServed(true).withStorage(true)
          .withNewSchema().withNewOpenAPIV3Schema().withType("object")
          .addToProperties("spec", new JSONSchemaPropsBuilder().withType("object")
              .addToProperties("size", new JSONSchemaPropsBuilder().withType("integer").withMinimum(1.0).build())
              .addToProperties("color", new JSONSchemaPropsBuilder().withType("string").build()).build())
          .endOpenAPIV3Schema().endSchema().endVersion().endSpec().build();
      crds.resource(crd).create();
      crds.withName(crdName).waitUntilCondition(c -> c != null && c.getStatus() != null && c.getStatus().getConditions().stream()
          .anyMatch(x -> x.getType().equals("Established") && x.getStatus().equals("True")), WAIT_S, TimeUnit.SECONDS);
      return "established " + crdName;
    });
    ResourceDefinitionContext ctx = new ResourceDefinitionContext.Builder().withGroup(GROUP).withVersion("v1")
        .withPlural("widgets").withKind("Widget").withNamespaced(true).build();
    var widgets = client.genericKubernetesResources(ctx).inNamespace(NS);
    step("custom resource create", () -> {
      GenericKubernetesResource w = new GenericKubernetesResourceBuilder().withApiVersion(GROUP + "/v1").withKind("Widget")
          .withNewMetadata().withName("w1").endMetadata().addToAdditionalProperties("spec", Map.of("size", 3, "color", "red")).build();
      // The CRD's REST endpoint may lag its Established condition by a moment on either server.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
      for (;;) {
        try {
          return "spec=" + spec(widgets.resource(w).create());
        } catch (KubernetesClientException e) {
          if (e.getCode() != 404 || System.nanoTime() > deadline) throw e;
          Thread.sleep(200);
        }
      }
    });
    step("custom resource get/list/patch", () -> {
      GenericKubernetesResource g = widgets.withName("w1").get();
      int n = widgets.list().getItems().size();
      GenericKubernetesResource p = widgets.withName("w1").patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"size\":5}}");
      return "get=" + spec(g) + " list=" + n + " patched=" + spec(p);
    });
    step("custom resource invalid", () -> failure(() -> widgets.withName("w1")
        .patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"size\":0}}")));
    step("custom resource delete", () -> {
      List<StatusDetails> d = widgets.withName("w1").delete();
      return "deleted " + d.size() + ", get after=" + widgets.withName("w1").get();
    });
  }

  private void pagination() {
    var cms = client.configMaps().inNamespace(NS);
    step("pagination", () -> {
      for (int i = 0; i < 5; i++) cms.resource(cm("page-" + i, "page", Map.of())).create();
      List<String> pages = new ArrayList<>();
      String cont = null;
      do {
        ConfigMapList l = cms.withLabel("wf", "page").list(new ListOptionsBuilder().withLimit(2L).withContinue(cont).build());
        pages.add(l.getItems().stream().map(c -> c.getMetadata().getName()).collect(Collectors.toList()).toString());
        cont = l.getMetadata().getContinue();
      } while (cont != null && !cont.isEmpty() && pages.size() < 10);
      return pages.toString();
    });
    step("pagination bad continue", () -> failure(() -> cms.list(new ListOptionsBuilder().withLimit(2L).withContinue("bogus").build())));
  }

  private void errors() {
    var cms = client.configMaps().inNamespace(NS);
    step("conflict on update", () -> {
      ConfigMap stale = cms.withName("cm-a").get();
      cms.withName("cm-a").patch(PatchContext.of(PatchType.JSON_MERGE), "{\"data\":{\"k\":\"newer\"}}");
      stale.getData().put("k", "stale");
      return failure(() -> cms.resource(stale).update());
    });
    step("conflict on create", () -> failure(() -> cms.resource(cm("cm-a", "crud", Map.of())).create()));
    step("not found", () -> {
      check(cms.withName("missing").get() == null, "get of a missing object is not null");
      return failure(() -> cms.withName("missing").patch(PatchContext.of(PatchType.JSON_MERGE), "{\"data\":{}}"));
    });
    step("not found on update", () -> failure(() -> cms.resource(cm("missing", "crud", Map.of())).update()));
    step("invalid", () -> failure(() -> cms.resource(cm("Bad_Name", "crud", Map.of())).create()));
    step("delete", () -> {
      List<StatusDetails> d = cms.withName("cm-a").delete();
      return "deleted " + d.stream().map(StatusDetails::getName).collect(Collectors.toList())
          + ", get after=" + cms.withName("cm-a").get() + ", delete again=" + cms.withName("cm-a").delete().size();
    });
  }

  private void podLog() {
    var pods = client.pods().inNamespace(NS);
    step("pod log", () -> {
      pods.resource(new PodBuilder().withNewMetadata().withName("p").endMetadata().withNewSpec()
          .addNewContainer().withName("c").withImage("busybox").endContainer().endSpec().build()).create();
      // No node runs it: both servers answer with no log at all.
      return "unscheduled pod: \"" + pods.withName("p").getLog() + "\"";
    });
    step("pod log error", () -> failure(() -> pods.withName("p").inContainer("nope").getLog()));
    step("pod exec error", () -> {
      // The upgrade is refused before any stream opens; fabric8 reports it through the ExecWatch's exit code future.
      try (var exec = pods.withName("p").redirectingOutput().exec("ls")) {
        var status = exec.exitCode().handle((code, err) -> err == null ? "exit " + code : err.getClass().getSimpleName() + ": " + err.getMessage());
        return status.get(WAIT_S, TimeUnit.SECONDS);
      } catch (KubernetesClientException e) {
        return status(e);
      }
    });
  }

  public static void main(String[] args) {
    int code;
    try (KubernetesClient client = new KubernetesClientBuilder().build()) {
      Workflow w = new Workflow(client);
      w.run();
      System.out.println(w.failures.isEmpty() ? "WORKFLOW OK" : "WORKFLOW FAILED " + w.failures);
      code = w.failures.isEmpty() ? 0 : 1;
    }
    System.exit(code);
  }
}
