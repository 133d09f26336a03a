package io.github.distlock.benchmarks;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;

/**
 * Formats JMH results as a Markdown table: for each scenario and contender the throughput
 * and its ratio to raw Curator's throughput in the same run, with error bars (JMH's 99.9%
 * confidence interval, propagated to the ratio).
 */
final class ResultTable {

	private static final List<String> CONTENDERS = List.of(RawCuratorContender.NAME, DistlockContender.NAME,
			AnnotationContender.NAME, SpringIntegrationContender.NAME, ShedLockContender.NAME);

	private static final Map<String, String> SCENARIOS = new LinkedHashMap<>();

	static {
		SCENARIOS.put("uncontended", "uncontended acquire+release, 1 thread");
		SCENARIOS.put("tryLockMiss", "try-lock miss (held by another client), 1 thread");
		SCENARIOS.put("hotKey8Threads", "hot key, 1 client x 8 threads");
		SCENARIOS.put("hotKey32Threads", "hot key, 1 client x 32 threads");
		SCENARIOS.put("hotKey3Clients8Threads", "hot key, 3 clients x 8 threads");
		SCENARIOS.put("distinctKeys10k", "10 000 distinct keys, 4 threads");
		SCENARIOS.put("readWrite90to10", "read/write 90/10, 8 threads");
		SCENARIOS.put("semaphore4Permits16Threads", "semaphore 4 permits, 16 threads");
		SCENARIOS.put("multiLock3Paths", "multi-lock of 3 paths, 1 thread");
	}

	private static final Map<String, String> NOT_APPLICABLE = Map.of("tryLockMiss/spring-integration",
			"n/a: tryLock() waits 1 s, tryLock(0) never asks ZooKeeper", "shedlock",
			"n/a: ShedLock never waits for a lock", "spring-integration", "n/a: registry has mutexes only");

	private ResultTable() {
	}

	static String format(Collection<RunResult> results) {
		Map<String, Map<String, Result<?>>> byScenario = new LinkedHashMap<>();
		for (RunResult result : results) {
			BenchmarkParams params = result.getParams();
			String benchmark = params.getBenchmark();
			String scenario = benchmark.substring(benchmark.lastIndexOf('.') + 1);
			byScenario.computeIfAbsent(scenario, (s) -> new LinkedHashMap<>())
				.put(params.getParam("contender"), result.getPrimaryResult());
		}
		StringBuilder table = new StringBuilder();
		table.append("| scenario | contender | ops/s (± 99.9% CI) | × raw Curator (±) |\n");
		table.append("|---|---|---:|---:|\n");
		for (Map.Entry<String, String> scenario : SCENARIOS.entrySet()) {
			Map<String, Result<?>> measured = byScenario.get(scenario.getKey());
			if (measured == null) {
				continue;
			}
			Result<?> raw = measured.get(RawCuratorContender.NAME);
			for (String contender : CONTENDERS) {
				Result<?> result = measured.get(contender);
				table.append("| ").append(scenario.getValue()).append(" | ").append(contender).append(" | ");
				if (result == null) {
					String reason = NOT_APPLICABLE.getOrDefault(scenario.getKey() + "/" + contender,
							NOT_APPLICABLE.getOrDefault(contender, "n/a"));
					table.append(reason).append(" | |\n");
					continue;
				}
				table.append(String.format(Locale.ROOT, "%.0f ± %.0f", result.getScore(), error(result))).append(" | ");
				if (raw != null && raw.getScore() > 0) {
					double ratio = result.getScore() / raw.getScore();
					double relative = Math
						.sqrt(square(error(result) / result.getScore()) + square(error(raw) / raw.getScore()));
					table.append(String.format(Locale.ROOT, "%.2f× ± %.2f", ratio, ratio * relative));
				}
				table.append(" |\n");
			}
		}
		return table.toString();
	}

	private static double error(Result<?> result) {
		double error = result.getScoreError();
		return Double.isNaN(error) ? 0 : error;
	}

	private static double square(double value) {
		return value * value;
	}

}
