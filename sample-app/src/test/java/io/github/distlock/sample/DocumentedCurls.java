package io.github.distlock.sample;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The {@code curl} commands a Markdown document shows, with the answers it shows for
 * them, and a way to send each one to a running application and compare the answer.
 * <p>
 * A command is a line {@code $ curl ...} (or {@code curl ...} in a block without prompts)
 * of a fenced shell block; the lines after it up to the next {@code $} are its answer,
 * or, when it stands alone in its block, the {@code json} block right below. The options
 * a documented curl may use are {@code -X}, {@code -H}, {@code -d} and {@code -s};
 * anything else fails, so that a document cannot show a command the check does not
 * understand.
 * <p>
 * Answers are compared as JSON: the same keys (except below {@link #PARTIAL} objects,
 * where a document may show a subset), the same values, except values that change from
 * run to run ({@link #VOLATILE}: times, sessions, thread and holder names, fencing
 * tokens, measurements), which only need the same JSON type. Lists of plain values are
 * compared in any order; lists of objects element by element.
 */
final class DocumentedCurls {

	/**
	 * Objects that a document may show in part: the health components, and the cluster
	 * view of the distlock endpoint (every lock node of the namespace).
	 */
	private static final Set<String> PARTIAL = Set.of("$.components", "$.cluster");

	private static final Pattern VOLATILE = Pattern
		.compile(".*\\.(connectString|sessionId|session|acquiredAt|startedAt|createdAt|since"
				+ "|fencingToken|sequence|thread|host|pid|epoch|memberId|leaderId)|.*\\.(nodes|participants)\\[\\d+]\\.name"
				+ "|\\$\\.(held|waiting)\\[\\d+]\\.holder" + "|.*\\.measurements\\[\\d+]\\.value");

	private static final Pattern SAMPLE_URL = Pattern.compile("^(http://)?localhost:8080(/.*)$");

	private static final JsonMapper json = JsonMapper.builder().build();

	private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

	private DocumentedCurls() {
	}

	/**
	 * The curl commands of a document, in document order.
	 * @param document the Markdown file
	 * @return its commands
	 * @throws IOException if the file cannot be read
	 */
	static List<Curl> of(Path document) throws IOException {
		List<String> lines = Files.readAllLines(document);
		List<Curl> curls = new ArrayList<>();
		int awaitingJson = -1;
		int i = 0;
		while (i < lines.size()) {
			String line = lines.get(i);
			if (!line.startsWith("```")) {
				if (!line.isBlank()) {
					awaitingJson = -1;
				}
				i++;
				continue;
			}
			String language = line.substring(3).trim();
			List<String> block = new ArrayList<>();
			int start = i + 1;
			i++;
			while (i < lines.size() && !lines.get(i).startsWith("```")) {
				block.add(lines.get(i));
				i++;
			}
			i++;
			if (language.equals("json") && awaitingJson >= 0) {
				curls.set(awaitingJson, curls.get(awaitingJson).answering(String.join("\n", block)));
				awaitingJson = -1;
				continue;
			}
			awaitingJson = -1;
			if (language.isEmpty() || language.equals("shell")) {
				List<Curl> inBlock = parseBlock(document, start, block);
				curls.addAll(inBlock);
				boolean prompted = block.stream().anyMatch((text) -> text.startsWith("$ "));
				if (prompted && inBlock.size() == 1 && inBlock.get(0).answer() == null) {
					awaitingJson = curls.size() - 1;
				}
			}
		}
		return curls;
	}

	private static List<Curl> parseBlock(Path document, int firstLine, List<String> block) {
		boolean prompted = block.stream().anyMatch((text) -> text.startsWith("$ "));
		List<Curl> curls = new ArrayList<>();
		Curl current = null;
		StringBuilder answer = new StringBuilder();
		for (int i = 0; i < block.size(); i++) {
			int lineNumber = firstLine + i + 1;
			String line = block.get(i);
			boolean command = !prompted || line.startsWith("$ ");
			if (!command) {
				if (current != null) {
					answer.append(line).append('\n');
				}
				continue;
			}
			if (current != null) {
				curls.add(current.answering(answer.toString()));
				current = null;
				answer.setLength(0);
			}
			StringBuilder text = new StringBuilder(prompted ? line.substring(2) : line);
			while (text.toString().endsWith("\\") && i + 1 < block.size()) {
				text.setLength(text.length() - 1);
				text.append(' ').append(block.get(++i).trim());
			}
			if (text.toString().startsWith("curl ")) {
				current = Curl.parse(document.toString() + ":" + lineNumber, text.toString());
			}
		}
		if (current != null) {
			curls.add(current.answering(answer.toString()));
		}
		return curls;
	}

	/**
	 * Send a documented command to the application on the given port and check that it
	 * answers as documented.
	 * @param curl the command
	 * @param port the application's port
	 * @throws Exception if the request fails
	 */
	static void assertAnswersAsDocumented(Curl curl, int port) throws Exception {
		HttpResponse<String> response = send(curl, port);
		String answer = curl.answer();
		if (answer == null) {
			assertThat(response.statusCode()).as("status of %s (%s): %s", curl.command(), curl.where(), response.body())
				.isBetween(200, 299);
			return;
		}
		JsonNode expected;
		try {
			expected = json.readTree(answer);
		}
		catch (JacksonException ex) {
			assertThat(response.body().strip()).as("answer to %s (%s)", curl.command(), curl.where())
				.isEqualTo(answer.strip());
			return;
		}
		List<String> differences = new ArrayList<>();
		compare("$", expected, json.readTree(response.body()), differences);
		assertThat(differences)
			.as("%s (%s) answered %s %s instead of %s", curl.command(), curl.where(), response.statusCode(),
					response.body(), answer.strip())
			.isEmpty();
	}

	static HttpResponse<String> send(Curl curl, int port) throws IOException, InterruptedException {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + curl.target()))
			.timeout(Duration.ofSeconds(30));
		curl.headers().forEach(request::header);
		if (curl.data() != null) {
			if (!curl.headers().containsKey("Content-Type")) {
				request.header("Content-Type", "application/x-www-form-urlencoded");
			}
			request.method(curl.method(), HttpRequest.BodyPublishers.ofString(curl.data()));
		}
		else {
			request.method(curl.method(), HttpRequest.BodyPublishers.noBody());
		}
		return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	private static void compare(String at, JsonNode expected, @Nullable JsonNode actual, List<String> differences) {
		if (actual == null || actual.isMissingNode()) {
			differences.add(at + " is missing");
			return;
		}
		if (expected.isObject()) {
			if (!actual.isObject()) {
				differences.add(at + " is not an object");
				return;
			}
			Set<String> documented = new TreeSet<>(expected.propertyNames());
			Set<String> answered = new TreeSet<>(actual.propertyNames());
			if (!PARTIAL.contains(at) && !documented.equals(answered)) {
				differences.add(at + " has keys " + answered + ", documented " + documented);
			}
			for (String key : documented) {
				compare(at + "." + key, expected.get(key), actual.get(key), differences);
			}
		}
		else if (expected.isArray()) {
			if (!actual.isArray() || actual.size() != expected.size()) {
				differences.add(at + " has " + (actual.isArray() ? actual.size() + " elements" : "no list")
						+ ", documented " + expected.size());
				return;
			}
			if (expected.values().stream().allMatch(JsonNode::isValueNode) && !VOLATILE.matcher(at + "[0]").matches()) {
				if (!sorted(expected).equals(sorted(actual))) {
					differences.add(at + " is " + actual + ", documented " + expected);
				}
				return;
			}
			for (int i = 0; i < expected.size(); i++) {
				compare(at + "[" + i + "]", expected.get(i), actual.get(i), differences);
			}
		}
		else if (VOLATILE.matcher(at).matches()) {
			if (expected.getNodeType() != actual.getNodeType()) {
				differences.add(at + " is a " + actual.getNodeType() + ", documented a " + expected.getNodeType());
			}
		}
		else if (expected.isNumber() && actual.isNumber()) {
			if (expected.decimalValue().compareTo(actual.decimalValue()) != 0) {
				differences.add(at + " is " + actual + ", documented " + expected);
			}
		}
		else if (!expected.equals(actual)) {
			differences.add(at + " is " + actual + ", documented " + expected);
		}
	}

	private static List<String> sorted(JsonNode array) {
		return array.values().stream().map(JsonNode::toString).sorted().toList();
	}

	/**
	 * One documented command.
	 *
	 * @param where document and line
	 * @param command the command as written
	 * @param method the HTTP method
	 * @param target path and query
	 * @param headers request headers
	 * @param data request body, if any
	 * @param answer the documented answer, if any
	 */
	record Curl(String where, String command, String method, String target, Map<String, String> headers,
			@Nullable String data, @Nullable String answer) {

		static Curl parse(String where, String command) {
			List<String> words = words(command);
			String method = null;
			String url = null;
			String data = null;
			Map<String, String> headers = new LinkedHashMap<>();
			for (int i = 1; i < words.size(); i++) {
				String word = words.get(i);
				switch (word) {
					case "-s", "--silent" -> {
					}
					case "-X", "--request" -> method = words.get(++i);
					case "-H", "--header" -> {
						String[] header = words.get(++i).split(":", 2);
						headers.put(header[0].trim(), header[1].trim());
					}
					case "-d", "--data" -> data = words.get(++i);
					default -> {
						if (word.startsWith("-")) {
							fail("%s: curl option %s is not understood by %s; use -X, -H, -d or -s", where, word,
									DocumentedCurls.class.getSimpleName());
						}
						url = word;
					}
				}
			}
			assertThat(url).as("URL of %s (%s)", command, where).isNotNull();
			Matcher sample = SAMPLE_URL.matcher(url);
			assertThat(sample.matches()).as("%s (%s) calls the sample on localhost:8080", command, where).isTrue();
			if (method == null) {
				method = (data != null) ? "POST" : "GET";
			}
			return new Curl(where, command, method, sample.group(2), headers, data, null);
		}

		Curl answering(String answer) {
			return new Curl(this.where, this.command, this.method, this.target, this.headers, this.data,
					answer.isBlank() ? null : answer);
		}

		private static List<String> words(String command) {
			List<String> words = new ArrayList<>();
			StringBuilder word = null;
			char quote = 0;
			for (int i = 0; i < command.length(); i++) {
				char c = command.charAt(i);
				if (quote != 0) {
					if (c == quote) {
						quote = 0;
					}
					else {
						word.append(c);
					}
				}
				else if (c == '\'' || c == '"') {
					quote = c;
					word = (word != null) ? word : new StringBuilder();
				}
				else if (Character.isWhitespace(c)) {
					if (word != null) {
						words.add(word.toString());
						word = null;
					}
				}
				else {
					word = (word != null) ? word : new StringBuilder();
					word.append(c);
				}
			}
			if (word != null) {
				words.add(word.toString());
			}
			return words;
		}

	}

}
