;;; dap-mode-session.el --- Emacs's dap-mode drives `loom dap' (tests/dap/editor.sh) -*- lexical-binding: t -*-

;; A real editor-side client: dap-mode (Debian's elpa-dap-mode) debugs fill() of
;; dap_kernels.ptx with a conditional breakpoint set in the .cu buffer, as a user of
;; M-x dap-debug would, then steps, evaluates a register and continues to the end.
;; Prints "ok - ..." / "not ok - ..." lines; exits 1 when a check failed.
;; Run: emacs --batch -l dap-mode-session.el LOOM PTX CU OUTDIR

(require 'dap-mode)
(require 'dap-ui)   ; (dap-mode reads its exception filters' settings from there)

(defvar loom-test-failed 0)
(defvar loom-test-passed 0)

(defun loom-check (ok what &optional detail)
  (if ok
      (progn (setq loom-test-passed (1+ loom-test-passed)) (princ (format "ok - %s\n" what)))
    (setq loom-test-failed (1+ loom-test-failed))
    (princ (format "not ok - %s%s\n" what (if detail (format ": %S" detail) "")))))

(defun loom-wait (pred what &optional seconds)
  "Process events until PRED holds (false after SECONDS, default 60)."
  (let ((deadline (+ (float-time) (or seconds 60))))
    (while (and (not (funcall pred)) (< (float-time) deadline))
      (accept-process-output nil 0.05))
    (or (funcall pred) (progn (loom-check nil (concat "waiting for " what)) nil))))

(let* ((args command-line-args-left)
       (loom (nth 0 args)) (ptx (nth 1 args)) (cu (nth 2 args)) (outdir (nth 3 args))
       (out (expand-file-name "emacs.bin" outdir))
       (stops 0) (ended nil) (session nil))
  (setq command-line-args-left nil)
  (setq dap-auto-configure-features nil dap-ui-mode nil dap-print-io nil)
  (setq dap-breakpoints-file (expand-file-name "breakpoints" outdir))
  (add-hook 'dap-stopped-hook (lambda (s) (setq session s stops (1+ stops))))
  (add-hook 'dap-terminated-hook (lambda (_s) (setq ended t)))
  (dap-register-debug-provider "loom" (lambda (conf) (plist-put conf :dap-server-path (list loom "dap"))))
  ;; the breakpoint, as M-x dap-breakpoint-add and dap-breakpoint-condition leave it
  (with-current-buffer (find-file-noselect cu)
    (goto-char (point-min))
    (forward-line 15)
    (dap-breakpoint-add)
    (let ((bps (gethash buffer-file-name (dap--get-breakpoints))))
      (dap--breakpoints-changed
       (list (plist-put (car bps) :condition "blockIdx.x == 1 && threadIdx.x == 37"))
       buffer-file-name)))
  (dap-debug (list :type "loom" :request "launch" :name "dap-mode under loom" :ptx ptx
                   :args (vector "--kernel" "fill" "--grid" "2" "--block" "64"
                                 (concat "out:s32:128>" out) "s32:2")
                   :cwd outdir))
  (when (loom-wait (lambda () (and session (dap--debug-session-active-frame session))) "the first stop")
    (let ((frame (dap--debug-session-active-frame session)))
      (loom-check (= (gethash "line" frame) 16) "dap-mode stops at dap_kernels.cu:16" (gethash "line" frame))
      (loom-check (string-suffix-p "dap_kernels.cu" (gethash "path" (gethash "source" frame)))
                  "... in the .cu file" (gethash "source" frame))
      (let ((result nil))
        (dap--send-message (dap--make-request "evaluate" (list :expression "%r5" :frameId (gethash "id" frame)))
                           (dap--resp-handler (lambda (r) (setq result (gethash "result" (gethash "body" r)))))
                           session)
        (loom-wait (lambda () result) "evaluate's answer")
        (loom-check (equal result "101 (0x65)") "evaluate %r5 is 101 (blockIdx.x 1, threadIdx.x 37)" result))
      (dap-next session)
      (when (loom-wait (lambda () (and (= stops 2) (dap--debug-session-active-frame session))) "the step")
        (loom-check (= (gethash "line" (dap--debug-session-active-frame session)) 17) "dap-next: line 17"))
      (dap-continue session (dap--debug-session-thread-id session))))
  (loom-wait (lambda () ended) "the end of the session")
  (loom-check (and (file-exists-p out) (= (file-attribute-size (file-attributes out)) 512))
              "the kernel wrote its output")
  (princ (format "dap-mode-session.el: %d passed, %d failed\n" loom-test-passed loom-test-failed))
  (kill-emacs (if (> loom-test-failed 0) 1 0)))
