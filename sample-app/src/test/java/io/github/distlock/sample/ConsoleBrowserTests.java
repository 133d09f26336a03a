package io.github.distlock.sample;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedCondition;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import org.springframework.boot.actuate.audit.AuditEvent;
import org.springframework.boot.actuate.audit.listener.AuditApplicationEvent;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.util.FileSystemUtils;

import io.github.distlock.actuate.DistlockAdminOperations;
import io.github.distlock.core.LockLostException;
import io.github.distlock.core.ScheduledJobs;
import io.github.distlock.test.CallGate;
import io.github.distlock.test.DistlockNode;
import io.github.distlock.test.DistlockNodes;
import io.github.distlock.test.LockAcquisition;
import io.github.distlock.test.TestZooKeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The console in a real browser (Debian's headless Chromium, driven through its
 * chromedriver), on the first of two instances of the shop against one ZooKeeper: a
 * purchase held inside its lock on the first instance shows as the holder with its token,
 * the second instance's purchase of the same SKU as the waiter behind it; a job is paused
 * and resumed from the page; a holder removed from the page loses its lock and its fenced
 * commit is refused. Skipped when no Chromium or chromedriver is installed
 * ({@code apt-get install chromium chromium-driver}), unless the environment variable
 * {@code DISTLOCK_BROWSER_REQUIRED} is {@code true}: then their absence fails the test
 * ({@code .ci/run} sets it once it has installed them, so that a build that passes there
 * has run this test).
 */
class ConsoleBrowserTests {

	private static final Path CHROMIUM = Path.of(System.getProperty("distlock.chromium", "/usr/bin/chromium"));

	private static final Path CHROMEDRIVER = Path
		.of(System.getProperty("distlock.chromedriver", "/usr/bin/chromedriver"));

	private static final Duration PAGE_WAIT = Duration.ofSeconds(20);

	/** The gate purchases wait at inside their lock; open between tests. */
	private static final AtomicReference<CallGate> gate = new AtomicReference<>(opened());

	private static @Nullable TestZooKeeper zookeeper;

	private static @Nullable DistlockNodes shop;

	private static @Nullable ChromeDriverService driverService;

	private static @Nullable WebDriver browser;

	private static @Nullable Path profile;

	private final ExecutorService callers = Executors.newFixedThreadPool(2);

	@BeforeAll
	static void start() throws IOException {
		boolean installed = Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
		String missing = "No Chromium at " + CHROMIUM + " or no chromedriver at " + CHROMEDRIVER
				+ ": install them with apt-get install chromium chromium-driver "
				+ "(or set -Ddistlock.chromium and -Ddistlock.chromedriver) to run the console's browser test";
		if (!installed && Boolean.parseBoolean(System.getenv("DISTLOCK_BROWSER_REQUIRED"))) {
			throw new IllegalStateException(missing + " (DISTLOCK_BROWSER_REQUIRED is true)");
		}
		assumeTrue(installed, missing);
		zookeeper = TestZooKeeper.start();
		shop = zookeeper.startNodes(2, SampleApplication.class, (builder) -> builder.sources(GatedStock.class),
				"--spring.datasource.url=jdbc:h2:mem:console-browser;DB_CLOSE_DELAY=-1",
				"--shop.restock.cron=0 0 3 * * *", "--shop.initial-stock.lamp=5", "--shop.initial-stock.desk=5",
				"--shop.initial-stock.chair=5", "--distlock.admin.enabled=true", "--distlock.lock.wait-time=30s");
		profile = Files.createTempDirectory("distlock-chromium");
		// The driver and the browser are given: Selenium Manager has nothing to download.
		driverService = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile())
			.usingAnyFreePort()
			.build();
		ChromeOptions options = new ChromeOptions();
		options.setBinary(CHROMIUM.toFile());
		options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
				"--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
				"--user-data-dir=" + profile);
		browser = new ChromeDriver(driverService, options);
		browser.manage().window().setSize(new Dimension(1280, 1200));
	}

	@AfterAll
	static void stop() throws IOException {
		try {
			if (browser != null) {
				browser.quit();
			}
			if (driverService != null) {
				driverService.stop();
			}
		}
		finally {
			if (shop != null) {
				shop.close();
			}
			if (zookeeper != null) {
				zookeeper.close();
			}
			if (profile != null) {
				FileSystemUtils.deleteRecursively(profile);
			}
		}
	}

	@AfterEach
	void openTheGate() {
		gate.getAndSet(opened()).open();
		this.callers.shutdownNow();
	}

	@Test
	void heldLockShowsItsHolderWithTheTokenAndTheOtherInstancesWaiterBehindIt() throws Exception {
		CallGate held = closeTheGate();
		Future<InventoryService.Purchase> holder = this.callers
			.submit(() -> shop().get(0).getBean(InventoryService.class).purchase("lamp", 1));
		held.awaitEntered();
		long token = shop().get(0).getRecorder().getFencingTokens("inventory/lamp").get(0);
		Future<InventoryService.Purchase> waiter = this.callers
			.submit(() -> shop().get(1).getBean(InventoryService.class).purchase("lamp", 1));
		shop().get(1).awaitWaiting("inventory/lamp");

		openConsole(shop().get(0));
		WebElement lock = waitFor(By.cssSelector("[data-lock='inventory/lamp']"));
		WebElement waiting = waitFor(By.cssSelector("[data-lock='inventory/lamp'] .waiter"));
		WebElement holding = lock.findElement(By.cssSelector(".holder"));
		assertThat(holding.getAttribute("data-token")).isEqualTo(Long.toString(token));
		assertThat(holding.getText()).containsIgnoringCase("holds").contains("token " + token);
		assertThat(waiting.getText()).containsIgnoringCase("waits #1");
		assertThat(holding.findElement(By.cssSelector(".who")).getText())
			.isNotEqualTo(waiting.findElement(By.cssSelector(".who")).getText());
		screenshot("console.png");

		held.open();
		assertThat(holder.get(20, TimeUnit.SECONDS).remaining()).isEqualTo(4);
		assertThat(waiter.get(20, TimeUnit.SECONDS).remaining()).isEqualTo(3);
		waitUntil(ExpectedConditions.numberOfElementsToBe(By.cssSelector("[data-lock='inventory/lamp']"), 0));
	}

	@Test
	void jobIsPausedAndResumedFromThePage() {
		ScheduledJobs jobs = shop().get(1).getBean(ScheduledJobs.class);
		openConsole(shop().get(0));
		WebElement row = waitFor(By.cssSelector("[data-job='restock']"));
		assertThat(row.getAttribute("data-paused")).isEqualTo("false");

		clickAndConfirm(By.xpath("//tr[@data-job='restock']//button[text()='Pause']"));
		waitFor(By.cssSelector("[data-job='restock'][data-paused='true']"));
		assertThat(jobs.isPaused("restock")).as("paused on the other instance too").isTrue();

		clickAndConfirm(By.xpath("//tr[@data-job='restock']//button[text()='Resume']"));
		waitFor(By.cssSelector("[data-job='restock'][data-paused='false']"));
		assertThat(jobs.isPaused("restock")).isFalse();
		assertThat(shop().get(0).getBean(AuditedActions.class).data()).extracting((data) -> data.get("action"))
			.contains("pause", "resume");
	}

	/**
	 * Needs {@code LockAdmin.forceRelease} of the lock engine: on a branch without it the
	 * page reports the action as not implemented (501) and this test fails.
	 */
	@Test
	void forceReleaseFromThePageEndsTheHoldersCallWithALostLockAndItsFencedCommitIsRefused() throws Exception {
		CallGate held = closeTheGate();
		InventoryService inventory = shop().get(0).getBean(InventoryService.class);
		Future<InventoryService.Purchase> holder = this.callers.submit(() -> inventory.purchase("desk", 2));
		held.awaitEntered();

		openConsole(shop().get(0));
		waitFor(By.cssSelector("[data-lock='inventory/desk'] .holder"));
		clickAndConfirm(By.xpath("//*[@data-lock='inventory/desk']//button[text()='Force release']"));
		assertThat(awaitOutcome("Force release of inventory/desk")).isEqualTo("Force release of inventory/desk: done.");
		LockAcquisition acquisition = shop().get(0).getRecorder().getAcquisitions("inventory/desk").get(0);
		await().atMost(PAGE_WAIT).until(acquisition::isLost);

		held.open();
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> holder.get(20, TimeUnit.SECONDS))
			.withCauseInstanceOf(LockLostException.class);
		assertThat(inventory.available("desk")).as("the purchase's commit was refused").isEqualTo(5);
	}

	/**
	 * Needs {@code LockAdmin.requestRelease} of the lock engine: on a branch without it
	 * the page reports the action as not implemented (501) and this test fails.
	 */
	@Test
	void requestReleaseFromThePageAsksTheHolder() throws Exception {
		CallGate held = closeTheGate();
		Future<InventoryService.Purchase> holder = this.callers
			.submit(() -> shop().get(0).getBean(InventoryService.class).purchase("chair", 1));
		held.awaitEntered();

		openConsole(shop().get(0));
		waitFor(By.cssSelector("[data-lock='inventory/chair'] .holder"));
		clickAndConfirm(By.xpath("//*[@data-lock='inventory/chair']//button[text()='Ask to release']"));
		assertThat(awaitOutcome("Request release of inventory/chair"))
			.isEqualTo("Request release of inventory/chair: done.");
		assertThat(shop().get(0).getBean(AuditedActions.class).data())
			.anySatisfy((data) -> assertThat(data).containsEntry("action", "request-release")
				.containsEntry("path", "inventory/chair")
				.containsEntry("outcome", "success"));
		held.open();
		holder.get(20, TimeUnit.SECONDS);
	}

	private static void openConsole(DistlockNode node) {
		String port = node.getApplicationContext()
			.orElseThrow()
			.getEnvironment()
			.getRequiredProperty("local.server.port");
		browser().get("http://localhost:" + port + "/distlock");
		waitFor(By.cssSelector("#refreshed"));
		waitUntil(ExpectedConditions.not(ExpectedConditions.textToBe(By.id("refreshed"), "never")));
	}

	/** Click a button, then confirm in the dialog, from the keyboard. */
	private static void clickAndConfirm(By button) {
		waitUntil(ExpectedConditions.elementToBeClickable(button)).click();
		WebElement confirm = waitUntil(ExpectedConditions.visibilityOfElementLocated(By.id("confirm-ok")));
		assertThat(browser().switchTo().activeElement().getAttribute("id")).as("focus in the dialog")
			.isEqualTo("confirm-cancel");
		confirm.sendKeys(Keys.ENTER);
		waitUntil(ExpectedConditions.invisibilityOfElementLocated(By.id("confirm")));
	}

	/** The page's message once the action it started has answered. */
	private static String awaitOutcome(String action) {
		By message = By.id("message");
		waitUntil((driver) -> {
			String text = driver.findElement(message).getText();
			return text.startsWith(action) && !text.endsWith("…");
		});
		return browser().findElement(message).getText();
	}

	private static WebElement waitFor(By element) {
		return waitUntil(ExpectedConditions.presenceOfElementLocated(element));
	}

	private static <T> T waitUntil(ExpectedCondition<T> condition) {
		return new WebDriverWait(browser(), PAGE_WAIT).until(condition);
	}

	private static void screenshot(String name) throws IOException {
		File shot = ((TakesScreenshot) browser()).getScreenshotAs(OutputType.FILE);
		Path target = Path.of("target", "screenshots", name);
		Files.createDirectories(target.getParent());
		Files.copy(shot.toPath(), target, StandardCopyOption.REPLACE_EXISTING);
	}

	private static CallGate closeTheGate() {
		CallGate closed = new CallGate();
		gate.getAndSet(closed).open();
		return closed;
	}

	private static CallGate opened() {
		CallGate open = new CallGate();
		open.open();
		return open;
	}

	private static DistlockNodes shop() {
		assertThat(shop).isNotNull();
		return shop;
	}

	private static WebDriver browser() {
		assertThat(browser).isNotNull();
		return browser;
	}

	/** The audit events of operators' actions an instance published. */
	static class AuditedActions implements ApplicationListener<AuditApplicationEvent> {

		private final List<AuditEvent> events = new CopyOnWriteArrayList<>();

		@Override
		public void onApplicationEvent(AuditApplicationEvent event) {
			if (DistlockAdminOperations.AUDIT_TYPE.equals(event.getAuditEvent().getType())) {
				this.events.add(event.getAuditEvent());
			}
		}

		List<Map<String, Object>> data() {
			return this.events.stream().map(AuditEvent::getData).toList();
		}

	}

	@TestConfiguration(proxyBeanMethods = false)
	static class GatedStock {

		@Bean
		@Primary
		StockStore switchableGatedStockStore(JdbcClient jdbc) {
			return new StockStore(jdbc) {

				@Override
				public int available(String sku) {
					gate.get().await();
					return super.available(sku);
				}

			};
		}

		@Bean
		AuditedActions auditedActions() {
			return new AuditedActions();
		}

	}

}
