package io.github.distlock.actuate;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.jayway.jsonpath.JsonPath;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.yaml.snakeyaml.Yaml;

import org.springframework.context.ConfigurableApplicationContext;

import io.github.distlock.testsupport.ZooKeeperExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Grafana dashboard and the Prometheus alert rules shipped in {@code ops/} use only
 * metrics, labels and label values that distlock really emits: every query is compared
 * with a real Prometheus scrape of an application that acquired, timed out and lost
 * locks, so a renamed meter or tag fails the build instead of leaving a panel empty or an
 * alert that never fires. Whether each query is valid PromQL and returns data is checked
 * by {@code ops/render-dashboard.sh} against a real Prometheus.
 */
class OpsDashboardTests {

	private static final Path DASHBOARD = Path.of("..", "ops", "grafana", "distlock-dashboard.json");

	private static final Path RULES = Path.of("..", "ops", "prometheus", "distlock-alerts.yml");

	/** Labels Prometheus adds to every scraped series. */
	private static final Set<String> TARGET_LABELS = Set.of("job", "instance");

	private static final Pattern SELECTOR = Pattern.compile("\\b([a-z_:][a-z0-9_:]*)\\s*(\\{([^}]*)\\})?");

	private static final Pattern MATCHER = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!~|!=|=)\\s*\"([^\"]*)\"");

	private static final Pattern GROUPING = Pattern.compile("\\b(by|without)\\s*\\(([^)]*)\\)");

	private static final Pattern TEMPLATE_LABEL = Pattern
		.compile("\\{\\{\\s*\\$?(?:labels\\.)?([a-zA-Z_][a-zA-Z0-9_]*)\\s*\\}\\}");

	@RegisterExtension
	static final ZooKeeperExtension zookeeper = new ZooKeeperExtension();

	/** Series names of the scrape, each with its labels and their values. */
	private static Map<String, Map<String, Set<String>>> scraped;

	@BeforeAll
	static void scrape() throws Exception {
		try (ConfigurableApplicationContext context = MetricsDocsTests.start(zookeeper)) {
			MetricsDocsTests.exerciseEveryOutcome(context);
			scraped = series(context.getBean(PrometheusMeterRegistry.class).scrape());
		}
		assertThat(scraped).containsKeys("distlock_lock_acquire_seconds_count", "distlock_lock_hold_lost_total");
	}

	@Test
	void everyDashboardQueryNamesMetricsLabelsAndValuesDistlockEmits() throws IOException {
		List<String> problems = new ArrayList<>();
		Object document = JsonPath.parse(DASHBOARD.toFile()).json();
		List<Map<String, Object>> targets = JsonPath.read(document, "$.panels[*].targets[*]");
		assertThat(targets).hasSizeGreaterThanOrEqualTo(8);
		for (Map<String, Object> target : targets) {
			String expr = (String) target.get("expr");
			Set<String> grouping = check(expr, problems);
			for (String label : templateLabels((String) target.get("legendFormat"))) {
				if (!grouping.contains(label)) {
					problems.add("legend {{" + label + "}} is not a label of the result of " + expr);
				}
			}
		}
		List<String> variables = JsonPath.read(document, "$.templating.list[?(@.type == 'query')].definition");
		for (String variable : variables) {
			check(variable.replaceAll("^label_values\\((.*), *([a-z_]+)\\)$", "$1"), problems);
		}
		assertThat(problems).isEmpty();
	}

	@Test
	void everyAlertRuleNamesMetricsLabelsAndValuesDistlockEmits() throws IOException {
		List<String> problems = new ArrayList<>();
		List<Map<String, Object>> rules = rules();
		assertThat(rules).hasSizeGreaterThanOrEqualTo(4);
		for (Map<String, Object> rule : rules) {
			String expr = (String) rule.get("expr");
			Set<String> grouping = check(expr, problems);
			@SuppressWarnings("unchecked")
			Map<String, String> annotations = (Map<String, String>) rule.get("annotations");
			for (String text : annotations.values()) {
				for (String label : templateLabels(text)) {
					if (!grouping.contains(label)) {
						problems.add(rule.get("alert") + ": {{ $labels." + label + " }} is not a label of its alerts");
					}
				}
			}
		}
		assertThat(problems).isEmpty();
	}

	@Test
	void theCheckFindsAMisspeltMetricALabelItDoesNotHaveAndAValueItNeverTakes() {
		List<String> problems = new ArrayList<>();
		check("sum by (name) (rate(distlock_acquire_count[5m]))", problems);
		check("sum by (path) (distlock_hold_seconds_count)", problems);
		check("distlock_lost_total{outcome=\"lost\"}", problems);
		check("distlock_lock_acquire_seconds_count{outcome=\"timeout\"}", problems);
		assertThat(problems).hasSize(4);
	}

	/**
	 * Check one expression; return the labels its result may carry (its grouping labels,
	 * or every label of its metrics when it does not aggregate).
	 */
	private static Set<String> check(String expr, List<String> problems) {
		String query = expr.replace("$__rate_interval", "5m").replace("$__interval", "1m");
		Set<String> metrics = new LinkedHashSet<>();
		Matcher selector = SELECTOR.matcher(query);
		while (selector.find()) {
			String name = selector.group(1);
			if (!name.startsWith("distlock_")) {
				continue;
			}
			metrics.add(name);
			Map<String, Set<String>> labels = scraped.get(name);
			if (labels == null) {
				problems.add(name + " is not emitted (in " + expr + ")");
				continue;
			}
			Matcher matcher = MATCHER.matcher((selector.group(3) != null) ? selector.group(3) : "");
			while (matcher.find()) {
				String label = matcher.group(1);
				if (TARGET_LABELS.contains(label)) {
					continue;
				}
				if (!labels.containsKey(label)) {
					problems.add(name + " has no label '" + label + "' (in " + expr + ")");
				}
				else if (matcher.group(2).equals("=") && !labels.get(label).contains(matcher.group(3))) {
					problems.add(name + "'s label " + label + " never is '" + matcher.group(3) + "' but one of "
							+ labels.get(label) + " (in " + expr + ")");
				}
			}
		}
		if (metrics.isEmpty()) {
			problems.add("no distlock metric in " + expr);
		}
		Set<String> grouping = new TreeSet<>();
		Matcher group = GROUPING.matcher(query);
		boolean aggregates = false;
		while (group.find()) {
			aggregates = true;
			for (String label : group.group(2).split(",")) {
				String trimmed = label.trim();
				grouping.add(trimmed);
				for (String metric : metrics) {
					Map<String, Set<String>> labels = scraped.get(metric);
					if (labels != null && !labels.containsKey(trimmed) && !TARGET_LABELS.contains(trimmed)) {
						problems.add(metric + " has no label '" + trimmed + "' to group by (in " + expr + ")");
					}
				}
			}
		}
		if (!aggregates) {
			metrics.stream().map(scraped::get).filter((labels) -> labels != null).forEach((labels) -> {
				grouping.addAll(labels.keySet());
			});
			grouping.addAll(TARGET_LABELS);
		}
		return grouping;
	}

	private static Set<String> templateLabels(String text) {
		Set<String> labels = new TreeSet<>();
		Matcher label = TEMPLATE_LABEL.matcher((text != null) ? text : "");
		while (label.find()) {
			labels.add(label.group(1));
		}
		return labels;
	}

	@SuppressWarnings("unchecked")
	private static List<Map<String, Object>> rules() throws IOException {
		try (Reader reader = Files.newBufferedReader(RULES)) {
			Map<String, Object> document = new Yaml().load(reader);
			List<Map<String, Object>> rules = new ArrayList<>();
			for (Map<String, Object> group : (List<Map<String, Object>>) document.get("groups")) {
				rules.addAll((List<Map<String, Object>>) group.get("rules"));
			}
			return rules;
		}
	}

	/** The series of a Prometheus text exposition: name, label, values. */
	private static Map<String, Map<String, Set<String>>> series(String exposition) {
		Map<String, Map<String, Set<String>>> series = new TreeMap<>();
		Pattern line = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{(.*)\\})? \\S+$", Pattern.MULTILINE);
		Matcher sample = line.matcher(exposition);
		while (sample.find()) {
			Map<String, Set<String>> labels = series.computeIfAbsent(sample.group(1), (name) -> new LinkedHashMap<>());
			Matcher label = MATCHER.matcher((sample.group(3) != null) ? sample.group(3) : "");
			while (label.find()) {
				labels.computeIfAbsent(label.group(1), (name) -> new TreeSet<>()).add(label.group(3));
			}
		}
		return series;
	}

}
