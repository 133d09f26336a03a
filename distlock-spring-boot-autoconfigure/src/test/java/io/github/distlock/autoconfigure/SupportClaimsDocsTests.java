package io.github.distlock.autoconfigure;

import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.github.distlock.annotation.DistributedLock;
import io.github.distlock.core.LockConfigurationException;
import io.github.distlock.interceptor.AnnotationLockOperationSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The documentation says one thing about what distlock supports. The table of
 * {@code docs/async.md} lists the asynchronous shapes a lock annotation supports; each is
 * accepted by the annotation parser, and no sentence of the README, the changelog or
 * {@code docs/} calls one of them unsupported, rejected or refused, except for the
 * refusals the code really makes (a plain {@code Future}, a {@code CompletionStage} type
 * that is neither {@code CompletionStage} nor {@code CompletableFuture}, a library
 * missing from the class path), which are checked here too.
 */
class SupportClaimsDocsTests {

	private static final Path ROOT = MarkdownDocuments.ROOT;

	private static final Path ASYNC = ROOT.resolve("docs").resolve("async.md");

	/** A claim that something is not supported. */
	private static final Pattern NEGATIVE = Pattern.compile(
			"not supported|unsupported|(rejected|refused) at startup"
					+ "|\\b(is|are) (rejected|refused)|do not put a lock annotation|held only until|not (be )?locked",
			Pattern.CASE_INSENSITIVE);

	/**
	 * The refusals the code really makes, which a negative sentence may be about; each is
	 * checked by {@link #refusalsTheDocsMayNameAreRealRefusals()} (the missing libraries
	 * by {@code WithoutReactorTests} and the Kotlin tests).
	 */
	private static final Pattern REAL_REFUSAL = Pattern
		.compile("plain `(java\\.util\\.concurrent\\.)?Future`|neither `CompletionStage` nor `CompletableFuture`"
				+ "|not on the class ?path|is missing from the class ?path", Pattern.CASE_INSENSITIVE);

	private static final Pattern CODE = Pattern.compile("`([^`]+)`");

	@Test
	void noDocumentCallsASupportedShapeUnsupported() throws IOException {
		Set<String> supported = supportedShapes();
		assertThat(supported).contains("CompletableFuture", "CompletionStage", "Mono", "Flux", "suspend");
		List<String> contradictions = new ArrayList<>();
		for (Path document : MarkdownDocuments.all()) {
			for (String statement : statements(document)) {
				// A claim in double quotes is quoted, as the changelog quotes what
				// it fixed.
				String claimed = statement.replaceAll("\"[^\"]*\"", "\"\"");
				if (!NEGATIVE.matcher(claimed).find() || REAL_REFUSAL.matcher(claimed).find()) {
					continue;
				}
				for (String shape : supported) {
					if (names(statement, shape)) {
						contradictions.add(document + ": calls " + shape + " unsupported: " + statement);
						break;
					}
				}
			}
		}
		assertThat(contradictions).isEmpty();
	}

	@Test
	void shapesTheTableListsAreAcceptedByTheAnnotationParser() throws Exception {
		AnnotationLockOperationSource source = new AnnotationLockOperationSource();
		for (String name : List.of("future", "stage", "mono", "flux", "flowPublisher")) {
			Method method = Shapes.class.getMethod(name);
			assertThat(source.getOperation(method, Shapes.class)).as(name).isNotNull();
		}
	}

	@Test
	void refusalsTheDocsMayNameAreRealRefusals() throws Exception {
		AnnotationLockOperationSource source = new AnnotationLockOperationSource();
		for (String name : List.of("plainFuture", "otherStage")) {
			Method method = Shapes.class.getMethod(name);
			assertThatExceptionOfType(LockConfigurationException.class).as(name)
				.isThrownBy(() -> source.getOperation(method, Shapes.class));
		}
	}

	@Test
	void theCheckCatchesTheClaimsItWasWrittenFor() {
		Set<String> supported = Set.of("CompletionStage", "suspend", "Mono");
		List<String> stale = List.of(
				"| Project Reactor, RxJava, `CompletionStage` | not needed, and not supported yet: a lock annotation on "
						+ "a method returning `CompletionStage`, `Future`, `Flow.Publisher` or a reactive type is "
						+ "**rejected at startup** | | `StartupValidationTests` |",
				"| Kotlin coroutines | **not supported yet**: do not put a lock annotation on a `suspend` function. It is "
						+ "not rejected at startup, but the lock is held only until the function first suspends | | |");
		for (String statement : stale) {
			assertThat(NEGATIVE.matcher(statement).find() && !REAL_REFUSAL.matcher(statement).find()).isTrue();
			assertThat(supported.stream().anyMatch((shape) -> names(statement, shape))).isTrue();
		}
	}

	/** The shapes in the first column of the table of {@code docs/async.md}. */
	private static Set<String> supportedShapes() throws IOException {
		Set<String> shapes = new LinkedHashSet<>();
		boolean table = false;
		for (String line : Files.readAllLines(ASYNC)) {
			if (line.startsWith("| the method returns")) {
				table = true;
				continue;
			}
			if (table && !line.startsWith("|")) {
				break;
			}
			if (table && !line.startsWith("|---")) {
				Matcher code = CODE.matcher(line.substring(0, line.indexOf('|', 1)));
				while (code.find()) {
					String shape = code.group(1).replaceAll("<.*", "");
					if (!shape.equals("ReactiveAdapterRegistry")) {
						shapes.add(shape);
					}
				}
			}
		}
		return shapes;
	}

	private static boolean names(String statement, String shape) {
		return Pattern.compile("`[^`]*\\b" + Pattern.quote(shape) + "\\b[^`]*`").matcher(statement).find()
				|| (shape.equals("suspend")
						&& statement.toLowerCase(Locale.ROOT).matches(".*\\b(coroutines?|suspend functions?)\\b.*"))
				|| (shape.equals("Mono") && statement.toLowerCase(Locale.ROOT).matches(".*\\breactive types?\\b.*"));
	}

	/**
	 * The statements of a document outside code blocks: each table row, each list item
	 * and each sentence of a paragraph.
	 */
	private static List<String> statements(Path document) throws IOException {
		List<String> blocks = new ArrayList<>();
		StringBuilder paragraph = new StringBuilder();
		boolean code = false;
		for (String line : Files.readAllLines(document)) {
			if (line.startsWith("```")) {
				code = !code;
				continue;
			}
			if (code) {
				continue;
			}
			boolean startsBlock = line.startsWith("|") || line.matches("\\s*([-*]|\\d+\\.) .*") || line.isBlank()
					|| line.startsWith("#");
			if (startsBlock && !paragraph.isEmpty()) {
				blocks.add(paragraph.toString());
				paragraph.setLength(0);
			}
			if (line.startsWith("|") || line.startsWith("#")) {
				blocks.add(line);
			}
			else if (!line.isBlank()) {
				paragraph.append(paragraph.isEmpty() ? "" : " ").append(line.trim());
			}
		}
		if (!paragraph.isEmpty()) {
			blocks.add(paragraph.toString());
		}
		List<String> statements = new ArrayList<>();
		for (String block : blocks) {
			statements
				.addAll(block.startsWith("|") ? List.of(block) : List.of(block.split("(?<=[.:!?])\\s+(?=[A-Z*`(])")));
		}
		return statements;
	}

	/** One method per shape, as a user would write it. */
	public static class Shapes {

		@DistributedLock("shapes/future")
		public CompletableFuture<String> future() {
			return CompletableFuture.completedFuture("done");
		}

		@DistributedLock("shapes/stage")
		public CompletionStage<String> stage() {
			return CompletableFuture.completedFuture("done");
		}

		@DistributedLock("shapes/mono")
		public Mono<String> mono() {
			return Mono.just("done");
		}

		@DistributedLock("shapes/flux")
		public Flux<String> flux() {
			return Flux.just("done");
		}

		@DistributedLock("shapes/flow")
		public Flow.Publisher<String> flowPublisher() {
			return (subscriber) -> {
			};
		}

		@DistributedLock("shapes/plain-future")
		public Future<String> plainFuture() {
			return CompletableFuture.completedFuture("done");
		}

		@DistributedLock("shapes/other-stage")
		public OwnStage otherStage() {
			return new OwnStage();
		}

	}

	/** A {@code CompletionStage} type that is neither of the two a lock can return. */
	static class OwnStage extends CompletableFuture<String> {

	}

}
