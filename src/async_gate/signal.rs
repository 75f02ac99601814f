//! Abort signals: a controller aborts once; a signal observes one or more controllers, can be
//! checked at any time, and can be awaited.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::Poll;

use tokio::sync::watch;

/// Aborts its signals, once and for good.
#[derive(Debug, Clone)]
pub struct AbortController {
    tx: Arc<watch::Sender<bool>>,
}

impl Default for AbortController {
    fn default() -> Self {
        AbortController::new()
    }
}

impl AbortController {
    /// A controller that has not aborted.
    pub fn new() -> Self {
        AbortController {
            tx: Arc::new(watch::channel(false).0),
        }
    }

    /// Aborts every signal of this controller.
    pub fn abort(&self) {
        self.tx.send_replace(true);
    }

    /// A signal that observes this controller.
    pub fn signal(&self) -> Signal {
        Signal {
            sources: vec![self.tx.subscribe()],
        }
    }
}

/// Observes one or more controllers; aborted as soon as any of them is.
#[derive(Debug, Clone)]
pub struct Signal {
    sources: Vec<watch::Receiver<bool>>,
}

impl Signal {
    /// A signal aborted when either `a` or `b` is.
    pub fn any(a: &Signal, b: &Signal) -> Signal {
        Signal {
            sources: a.sources.iter().chain(&b.sources).cloned().collect(),
        }
    }

    /// Whether any source has aborted.
    pub fn is_aborted(&self) -> bool {
        self.sources.iter().any(|r| *r.borrow())
    }

    /// Resolves once any source aborts; never, if none ever does.
    pub async fn aborted(&self) {
        let mut sources = self.sources.clone();
        loop {
            if sources.iter().any(|r| *r.borrow()) {
                return;
            }
            if sources.is_empty() {
                return std::future::pending().await;
            }
            let mut changes: Vec<Pin<Box<dyn Future<Output = bool> + Send + '_>>> = sources
                .iter_mut()
                .map(|r| {
                    Box::pin(async move { r.changed().await.is_ok() })
                        as Pin<Box<dyn Future<Output = bool> + Send + '_>>
                })
                .collect();
            let (index, alive) = std::future::poll_fn(|cx| {
                for (i, f) in changes.iter_mut().enumerate() {
                    if let Poll::Ready(alive) = f.as_mut().poll(cx) {
                        return Poll::Ready((i, alive));
                    }
                }
                Poll::Pending
            })
            .await;
            drop(changes);
            if !alive {
                // That controller is gone without aborting: it never will.
                sources.remove(index);
            }
        }
    }
}
