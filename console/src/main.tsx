import { render } from 'preact'
import { App } from './app.tsx'
import { syncLanguage } from './language-sync.ts'
import './styles.css'

syncLanguage()
render(<App />, document.getElementById('app')!)
