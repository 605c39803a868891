//! The generated Kubernetes manifests parse, and agree with the generated
//! service: the probes name the health paths its `restlight.toml` makes it
//! serve, on its port, and the termination grace covers its drain time.

use std::fs;

use cargo_restlight::generate::{generate, Options};
use cargo_restlight::source::{built_from, Source};
use cargo_restlight::template::{Style, Variant};
use yaml_rust2::{Yaml, YamlLoader};

struct Service {
    config: toml::Table,
    deployment: Yaml,
    service: Yaml,
    hpa: Yaml,
}

fn generated() -> Service {
    let tmp = tempfile::tempdir().unwrap();
    let options = Options {
        // Upper case and `_` are fine for cargo, not for Kubernetes objects.
        name: "Users_V2".to_owned(),
        variant: Variant::Default,
        style: Style::Jaxrs,
        source: Source::checkout(&built_from()).unwrap(),
        parent: tmp.path().to_path_buf(),
    };
    let dir = generate(&options).unwrap();
    let yaml = |file: &str| {
        let text = fs::read_to_string(dir.join("k8s").join(file)).unwrap();
        let mut docs = YamlLoader::load_from_str(&text).unwrap_or_else(|e| panic!("k8s/{file}: {e}"));
        assert_eq!(docs.len(), 1, "k8s/{file} holds one object");
        docs.remove(0)
    };
    Service {
        config: toml::from_str(&fs::read_to_string(dir.join("restlight.toml")).unwrap()).unwrap(),
        deployment: yaml("deployment.yaml"),
        service: yaml("service.yaml"),
        hpa: yaml("hpa.yaml"),
    }
}

fn int(config: &toml::Table, table: &str, key: &str) -> i64 {
    config[table][key].as_integer().unwrap_or_else(|| panic!("{table}.{key}"))
}

fn path(yaml: &Yaml, keys: &[&str]) -> Yaml {
    keys.iter().fold(yaml.clone(), |at, key| match key.parse::<usize>() {
        Ok(i) => at[i].clone(),
        Err(_) => at[*key].clone(),
    })
}

#[test]
fn probes_name_the_health_paths_the_service_serves() {
    let s = generated();
    let base = s.config["actuator"]["base_path"].as_str().unwrap();
    let expose: Vec<&str> =
        s.config["actuator"]["expose"].as_array().unwrap().iter().filter_map(|v| v.as_str()).collect();
    assert!(expose.contains(&"health") && expose.contains(&"metrics"), "{expose:?}");

    let container = path(&s.deployment, &["spec", "template", "spec", "containers", "0"]);
    let liveness = path(&container, &["livenessProbe", "httpGet"]);
    let readiness = path(&container, &["readinessProbe", "httpGet"]);
    assert_eq!(liveness["path"].as_str(), Some(format!("{base}/health/liveness").as_str()));
    assert_eq!(readiness["path"].as_str(), Some(format!("{base}/health/readiness").as_str()));

    let port = path(&container, &["ports", "0"]);
    assert_eq!(port["containerPort"].as_i64(), Some(int(&s.config, "server", "port")));
    for probe in [&liveness, &readiness] {
        assert_eq!(probe["port"], port["name"], "the probes use the container's port");
    }
    let annotations = path(&s.deployment, &["spec", "template", "metadata", "annotations"]);
    assert_eq!(annotations["prometheus.io/path"].as_str(), Some(format!("{base}/metrics").as_str()));
    assert_eq!(annotations["prometheus.io/port"].as_str(), Some(int(&s.config, "server", "port").to_string().as_str()));
}

#[test]
fn the_grace_period_covers_the_pause_and_the_drain() {
    let s = generated();
    let pod = path(&s.deployment, &["spec", "template", "spec"]);
    let grace = pod["terminationGracePeriodSeconds"].as_i64().unwrap();
    let command = path(&pod, &["containers", "0", "lifecycle", "preStop", "exec", "command"]);
    assert_eq!(command[0].as_str(), Some("sleep"));
    let pause: i64 = command[1].as_str().unwrap().parse().unwrap();
    let drain_ms = int(&s.config, "server", "shutdown_timeout_ms");
    assert!(pause > 0);
    assert!(grace * 1000 > pause * 1000 + drain_ms, "grace {grace}s, pause {pause}s, drain {drain_ms}ms");
}

#[test]
fn the_service_and_autoscaler_point_at_the_deployment() {
    let s = generated();
    let name = path(&s.deployment, &["metadata", "name"]);
    assert_eq!(name.as_str(), Some("users-v2"), "a DNS label");
    assert_eq!(path(&s.service, &["metadata", "name"]), name);
    let labels = path(&s.deployment, &["spec", "template", "metadata", "labels"]);
    assert_eq!(path(&s.deployment, &["spec", "selector", "matchLabels"]), labels);
    assert_eq!(path(&s.service, &["spec", "selector"]), labels);
    assert_eq!(path(&s.service, &["spec", "ports", "0", "targetPort"]).as_str(), Some("http"));

    assert_eq!(s.hpa["kind"].as_str(), Some("HorizontalPodAutoscaler"));
    assert_eq!(path(&s.hpa, &["spec", "scaleTargetRef", "kind"]).as_str(), Some("Deployment"));
    assert_eq!(path(&s.hpa, &["spec", "scaleTargetRef", "name"]), name);
    // Utilization is measured against the request: there must be one.
    let requests = path(&s.deployment, &["spec", "template", "spec", "containers", "0", "resources", "requests"]);
    assert!(requests["cpu"].as_str().is_some() && requests["memory"].as_str().is_some());
}
