// The one wording of a URL opener's failure: xdg-open's statuses translated, anything else as it is.
import Testing

@testable import SystemSupport

@Suite struct OpenerFailureTests {
    @Test func xdgOpenStatusesAreTranslatedWhateverItsPath() {
        #expect(
            OpenerFailure.message(program: "/usr/bin/xdg-open", exit: .exited(3))
                == "could not open the URL: no application handles this URL (xdg-open exited with status 3)")
        #expect(
            OpenerFailure.message(program: "xdg-open", exit: .exited(4))
                == "could not open the URL: the application that handles it failed (xdg-open exited with status 4)"
        )
    }

    @Test func otherOpenersAndOtherEndingsAreGivenAsTheyAre() {
        // Another opener's status 3 may mean something else: not translated.
        #expect(
            OpenerFailure.message(program: "/usr/bin/gio-open", exit: .exited(3))
                == "could not open the URL: gio-open exited with status 3")
        #expect(
            OpenerFailure.message(program: "xdg-open", exit: .signaled(9))
                == "could not open the URL: xdg-open killed by signal 9")
        #expect(
            OpenerFailure.message(
                program: "/opt/x/xdg-open", couldNotStart: .notFound(program: "/opt/x/xdg-open"))
                == "could not open the URL: could not start xdg-open: program not found")
    }
}
