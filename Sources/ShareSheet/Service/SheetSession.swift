// One open sheet: its model, its window and the pending Show call, kept in step.
import ActivityBrokerInterface
import DBus

/// Runs one sheet from `Show` to the window closing: feeds input and the broker's updates to
/// the model and carries out the effects (the reply to `Show`, closing the window). Main thread.
@MainActor
final class SheetSession {
    let handle: ObjectPath
    private var model: SheetModel
    private let window: SheetWindow
    private var responder: Responder?
    /// Called once, when the window has closed.
    private let onClosed: (SheetSession) -> Void

    init(
        request: SheetRequest, strings: SheetStrings, responder: Responder,
        onClosed: @escaping (SheetSession) -> Void
    ) {
        handle = request.handle
        let app = DesktopApp(appID: request.appID)
        model = SheetModel(
            header: SheetHeader(title: request.title, url: request.url, appName: app?.name),
            activities: request.activities, direction: strings.direction)
        window = SheetWindow(model: model, strings: strings, app: app)
        self.responder = responder
        self.onClosed = onClosed
        window.onKey = { [weak self] key in
            guard let self else { return false }
            self.apply(self.model.press(key))
            return true
        }
        window.onChoose = { [weak self] id in
            guard let self else { return }
            self.apply(self.model.choose(id))
        }
        window.onDismiss = { [weak self] in
            guard let self else { return }
            self.apply(self.model.dismiss())
        }
        window.present(startupID: request.activationToken, transientFor: request.parentWindow)
    }

    /// The broker's `Update`.
    func update(_ state: SheetJobState, message: String) {
        apply(model.update(state, message: message))
    }

    /// The broker's `Close`, or the broker leaving the bus.
    func close() {
        apply(model.close())
    }

    private func apply(_ effects: [SheetEffect]) {
        var closing = false
        for effect in effects {
            switch effect {
            case .respond(let response): respond(response)
            case .closeWindow: closing = true
            }
        }
        if closing {
            window.destroy()
            onClosed(self)
        } else {
            window.render(model)
        }
    }

    private func respond(_ response: SheetResponse) {
        guard let responder else { return }
        self.responder = nil
        switch response {
        case .chosen(let id):
            responder.reply([
                .uint32(Sheet1.Response.chosen.rawValue),
                .vardict([
                    Sheet1.ShowResultKey.activityID: .string(id),
                    Sheet1.ShowResultKey.activationToken: .string(window.activationToken()),
                ]),
            ])
        case .cancelled:
            responder.reply([.uint32(Sheet1.Response.cancelled.rawValue), .vardict([:])])
        case .failed(let message):
            responder.reply([
                .uint32(Sheet1.Response.failed.rawValue), .vardict([ResultKey.message: .string(message)]),
            ])
        }
    }
}
