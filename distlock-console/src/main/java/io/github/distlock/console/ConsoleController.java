package io.github.distlock.console;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.BeanWrapperImpl;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RestController;

import io.github.distlock.actuate.DistlockEndpoint;

/**
 * The console's reads: {@code GET <path>/api/state}, what the page shows.
 */
@RestController
@RequestMapping("${distlock.console.path:/distlock}/api")
public class ConsoleController {

	// Spring Security's request attribute of the CsrfToken, read without depending on it.
	private static final String CSRF_ATTRIBUTE = "_csrf";

	private final DistlockEndpoint reader;

	private final boolean admin;

	/**
	 * Create the controller.
	 * @param reader what reads the locks, jobs and cluster (the endpoint's code, whether
	 * or not the endpoint is exposed)
	 * @param admin whether operators' actions are on
	 */
	public ConsoleController(DistlockEndpoint reader, boolean admin) {
		this.reader = reader;
		this.admin = admin;
	}

	/**
	 * Read what the page shows.
	 * @param request the request, whose CSRF token (if any) the page sends back
	 * @return the state
	 */
	@GetMapping("/state")
	public ConsoleState state(HttpServletRequest request) {
		DistlockEndpoint.LocksDescriptor locks = this.reader.locks();
		return new ConsoleState(this.admin, locks.held(), locks.cluster(), locks.jobs(), csrf(request));
	}

	private static ConsoleState.@Nullable CsrfToken csrf(HttpServletRequest request) {
		Object token = request.getAttribute(CSRF_ATTRIBUTE);
		if (token == null) {
			return null;
		}
		BeanWrapperImpl properties = new BeanWrapperImpl(token);
		Object header = properties.getPropertyValue("headerName");
		Object value = properties.getPropertyValue("token");
		return (header != null && value != null) ? new ConsoleState.CsrfToken(header.toString(), value.toString())
				: null;
	}

}
