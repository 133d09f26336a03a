package io.github.distlock.curator;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

import io.github.distlock.core.JobOutcome;
import io.github.distlock.core.JobRun;
import io.github.distlock.core.JobSchedule;

/**
 * The record of a scheduled job, the data of its node {@code /jobs/<name>}: whether it is
 * paused, the latest slot claimed, the schedule and its next slot, and the last runs,
 * newest first, as JSON: <pre class="code">
 * {"paused":false,"lastSlot":"2026-11-27T04:00:00Z","schedule":"cron 0 0 * * * * (UTC)",
 *  "nextSlot":"2026-11-27T05:00:00Z","runs":[{"slot":"2026-11-27T04:00:00Z",
 *  "node":"shop@host/4711","startedAt":"2026-11-27T04:00:00.012Z","endedAt":"2026-11-27T04:00:00.130Z",
 *  "outcome":"SUCCEEDED","fencingToken":4294967312}]}
 * </pre> A manual run has {@code "manual":true} (written only then, so records without
 * manual runs read as before): its {@code slot} is the time it was asked for, and it
 * leaves {@code lastSlot} as it was. {@code schedule} and {@code nextSlot} are written by
 * each claim (the slot after the one claimed) and by the registration of a job that has
 * no record yet (the slot after that time); a reader ignores the fields it does not know,
 * and reads a record without them as having neither.
 *
 * @param paused whether the job's firings skip
 * @param lastSlot the latest slot claimed; a slot not after it is never run again
 * @param runs the last runs, newest first, at most {@value #HISTORY}
 * @param schedule the description of the schedule, or {@code null}
 * @param nextSlot the schedule's slot after the latest claimed, or {@code null}
 */
record JobRecord(boolean paused, @Nullable Instant lastSlot, List<JobRun> runs, @Nullable String schedule,
		@Nullable Instant nextSlot) {

	/** How many runs a record keeps. */
	static final int HISTORY = 10;

	static final JobRecord EMPTY = new JobRecord(false, null, List.of(), null, null);

	JobRecord withPaused(boolean paused) {
		return new JobRecord(paused, this.lastSlot, this.runs, this.schedule, this.nextSlot);
	}

	/** This record with the given run claiming its slot of the given schedule. */
	JobRecord claimedBy(JobRun run, JobSchedule schedule) {
		return new JobRecord(this.paused, run.slot(), withNewest(run), schedule.description(),
				schedule.slotAfter(run.slot()));
	}

	/** The record of a job registered at the given time, before any claim. */
	static JobRecord registered(JobSchedule schedule, Instant now) {
		Instant current = schedule.slotAt(now);
		return new JobRecord(false, null, List.of(), schedule.description(),
				schedule.slotAfter((current != null) ? current : now));
	}

	/** This record with the given manual run started: it claims no slot. */
	JobRecord startedManually(JobRun run) {
		return new JobRecord(this.paused, this.lastSlot, withNewest(run), this.schedule, this.nextSlot);
	}

	private List<JobRun> withNewest(JobRun run) {
		List<JobRun> runs = new ArrayList<>(HISTORY);
		runs.add(run);
		for (JobRun older : this.runs) {
			if (runs.size() == HISTORY) {
				break;
			}
			runs.add(older);
		}
		return List.copyOf(runs);
	}

	/** This record with the run of the given slot and token replaced, if it is there. */
	JobRecord withRun(Instant slot, long token, UnaryOperator<JobRun> change) {
		List<JobRun> runs = new ArrayList<>(this.runs.size());
		for (JobRun run : this.runs) {
			runs.add((run.slot().equals(slot) && run.fencingToken() == token) ? change.apply(run) : run);
		}
		return new JobRecord(this.paused, this.lastSlot, List.copyOf(runs), this.schedule, this.nextSlot);
	}

	byte[] toBytes() {
		StringBuilder json = new StringBuilder(128 + 200 * this.runs.size());
		json.append("{\"paused\":").append(this.paused).append(",\"lastSlot\":");
		string(json, this.lastSlot);
		if (this.schedule != null) {
			json.append(",\"schedule\":");
			string(json, this.schedule);
		}
		if (this.nextSlot != null) {
			json.append(",\"nextSlot\":");
			string(json, this.nextSlot);
		}
		json.append(",\"runs\":[");
		for (int i = 0; i < this.runs.size(); i++) {
			JobRun run = this.runs.get(i);
			json.append((i > 0) ? ",{" : "{").append("\"slot\":");
			string(json, run.slot());
			json.append(",\"node\":");
			string(json, run.node());
			json.append(",\"startedAt\":");
			string(json, run.startedAt());
			json.append(",\"endedAt\":");
			string(json, run.endedAt());
			json.append(",\"outcome\":");
			string(json, run.outcome().name());
			json.append(",\"fencingToken\":").append(run.fencingToken());
			if (run.manual()) {
				json.append(",\"manual\":true");
			}
			json.append('}');
		}
		return json.append("]}").toString().getBytes(StandardCharsets.UTF_8);
	}

	/**
	 * Read a record.
	 * @param job the job's name, for the runs
	 * @param data the node's data; empty or {@code null} for an empty record
	 * @return the record
	 * @throws IllegalArgumentException if the data is not a job record
	 */
	static JobRecord parse(String job, byte @Nullable [] data) {
		if (data == null || data.length == 0) {
			return EMPTY;
		}
		Object value = new Json(new String(data, StandardCharsets.UTF_8)).value();
		if (!(value instanceof Map<?, ?> fields)) {
			throw new IllegalArgumentException("not a JSON object");
		}
		List<JobRun> runs = new ArrayList<>();
		if (fields.get("runs") instanceof List<?> list) {
			for (Object item : list) {
				if (item instanceof Map<?, ?> run) {
					Instant endedAt = instant(run.get("endedAt"));
					runs.add(new JobRun(job, required(instant(run.get("slot")), "slot"), (String) run.get("node"),
							required(instant(run.get("startedAt")), "startedAt"), endedAt,
							JobOutcome.valueOf((String) run.get("outcome")),
							((Number) run.get("fencingToken")).longValue(), Boolean.TRUE.equals(run.get("manual"))));
				}
			}
		}
		return new JobRecord(Boolean.TRUE.equals(fields.get("paused")), instant(fields.get("lastSlot")),
				List.copyOf(runs), (fields.get("schedule") instanceof String schedule) ? schedule : null,
				instant(fields.get("nextSlot")));
	}

	private static <T> T required(@Nullable T value, String name) {
		if (value == null) {
			throw new IllegalArgumentException("a run has no " + name);
		}
		return value;
	}

	private static @Nullable Instant instant(@Nullable Object value) {
		return (value instanceof String text) ? Instant.parse(text) : null;
	}

	private static void string(StringBuilder json, @Nullable Object value) {
		if (value == null) {
			json.append("null");
			return;
		}
		json.append('"');
		String text = value.toString();
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == '"' || c == '\\') {
				json.append('\\').append(c);
			}
			else if (c < 0x20) {
				json.append(String.format("\\u%04x", (int) c));
			}
			else {
				json.append(c);
			}
		}
		json.append('"');
	}

	/**
	 * A reader of the JSON this record writes (objects, arrays, strings, numbers,
	 * literals).
	 */
	private static final class Json {

		private final String text;

		private int at;

		Json(String text) {
			this.text = text;
		}

		@Nullable Object value() {
			skipSpace();
			char c = peek();
			if (c == '{') {
				return object();
			}
			if (c == '[') {
				return array();
			}
			if (c == '"') {
				return string();
			}
			if (this.text.startsWith("null", this.at)) {
				this.at += 4;
				return null;
			}
			if (this.text.startsWith("true", this.at)) {
				this.at += 4;
				return Boolean.TRUE;
			}
			if (this.text.startsWith("false", this.at)) {
				this.at += 5;
				return Boolean.FALSE;
			}
			int start = this.at;
			while (this.at < this.text.length() && "+-0123456789.eE".indexOf(this.text.charAt(this.at)) >= 0) {
				this.at++;
			}
			if (start == this.at) {
				throw new IllegalArgumentException("unexpected '" + c + "' at " + start);
			}
			String number = this.text.substring(start, this.at);
			return (number.contains(".") || number.contains("e") || number.contains("E")) ? Double.parseDouble(number)
					: Long.parseLong(number);
		}

		private Map<String, @Nullable Object> object() {
			Map<String, @Nullable Object> fields = new LinkedHashMap<>();
			this.at++;
			skipSpace();
			if (peek() == '}') {
				this.at++;
				return fields;
			}
			while (true) {
				skipSpace();
				String name = string();
				skipSpace();
				expect(':');
				fields.put(name, value());
				skipSpace();
				if (peek() == ',') {
					this.at++;
					continue;
				}
				expect('}');
				return fields;
			}
		}

		private List<@Nullable Object> array() {
			List<@Nullable Object> items = new ArrayList<>();
			this.at++;
			skipSpace();
			if (peek() == ']') {
				this.at++;
				return items;
			}
			while (true) {
				items.add(value());
				skipSpace();
				if (peek() == ',') {
					this.at++;
					continue;
				}
				expect(']');
				return items;
			}
		}

		private String string() {
			expect('"');
			StringBuilder out = new StringBuilder();
			while (true) {
				char c = this.text.charAt(this.at++);
				if (c == '"') {
					return out.toString();
				}
				if (c != '\\') {
					out.append(c);
					continue;
				}
				char escaped = this.text.charAt(this.at++);
				switch (escaped) {
					case 'u' -> {
						out.append((char) Integer.parseInt(this.text.substring(this.at, this.at + 4), 16));
						this.at += 4;
					}
					case 'n' -> out.append('\n');
					case 't' -> out.append('\t');
					case 'r' -> out.append('\r');
					case 'b' -> out.append('\b');
					case 'f' -> out.append('\f');
					default -> out.append(escaped);
				}
			}
		}

		private void expect(char c) {
			if (peek() != c) {
				throw new IllegalArgumentException("expected '" + c + "' at " + this.at);
			}
			this.at++;
		}

		private char peek() {
			if (this.at >= this.text.length()) {
				throw new IllegalArgumentException("unexpected end");
			}
			return this.text.charAt(this.at);
		}

		private void skipSpace() {
			while (this.at < this.text.length() && Character.isWhitespace(this.text.charAt(this.at))) {
				this.at++;
			}
		}

	}

}
