package io.github.distlock.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.util.StringUtils;

import io.github.distlock.core.LockConfigurationException;

/**
 * Reports a {@link LockConfigurationException} (a lock annotation that cannot work as
 * written, found when the bean is proxied) as Spring Boot's "APPLICATION FAILED TO START"
 * report. distlock's messages say what is wrong and, after the last {@code "; "} outside
 * parentheses, how to fix it: that part becomes the action.
 */
class LockConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<LockConfigurationException> {

	private static final String SEPARATOR = "; ";

	private static final String GENERAL_ACTION = "Correct the lock annotation or setting named above; "
			+ "docs/annotations.md and docs/paths.md say what each attribute accepts.";

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, LockConfigurationException cause) {
		String message = String.valueOf(cause.getMessage());
		int fix = lastSeparatorOutsideParentheses(message);
		if (fix < 0 || fix + SEPARATOR.length() >= message.length()) {
			return new FailureAnalysis(sentence(message), GENERAL_ACTION, cause);
		}
		String description = message.substring(0, fix);
		String action = StringUtils.capitalize(message.substring(fix + SEPARATOR.length()));
		return new FailureAnalysis(sentence(description), sentence(action), cause);
	}

	/**
	 * The last {@code "; "} that is not inside parentheses or brackets: an action may
	 * itself contain one in a parenthesis ("compile with 'javac -parameters' (Spring
	 * Boot's plugins set it; IDE builds need it ...)"), which is no separator.
	 */
	static int lastSeparatorOutsideParentheses(String message) {
		int depth = 0;
		int last = -1;
		for (int i = 0; i < message.length(); i++) {
			char c = message.charAt(i);
			if (c == '(' || c == '[') {
				depth++;
			}
			else if ((c == ')' || c == ']') && depth > 0) {
				depth--;
			}
			else if (depth == 0 && message.startsWith(SEPARATOR, i)) {
				last = i;
			}
		}
		return last;
	}

	private static String sentence(String text) {
		return text.endsWith(".") ? text : text + ".";
	}

}
